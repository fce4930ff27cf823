#!/usr/bin/env bash
# The whole test suite: native unit and statistical tests, CLI tests, then end-to-end tests in
# headless Chromium against the built dist/. Installs what it needs first (idempotently).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-wasm.sh
scripts/setup-browser.sh

echo "== native tests (unit, statistical, CLI)"
cargo test --all-targets

echo "== build dist/"
scripts/build.sh

echo "== end-to-end tests in headless Chromium"
mkdir -p test-artifacts
node --test --test-concurrency=1 tests/e2e/
