#!/usr/bin/env bash
# The whole test suite: native unit and statistical tests, CLI tests, then end-to-end tests in
# headless Chromium against the built dist/. Installs what it needs first (idempotently).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-wasm.sh
scripts/setup-browser.sh
scripts/setup-nextest.sh

# Each phase prints its wall time (the budget: all of `make test` under 10 minutes on 2 cores).
phase_start=$SECONDS
phase() { echo "== $1 took $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }

echo "== native tests (unit, statistical, CLI) through cargo-nextest: every test binary at once"
cargo test --all-targets --no-run
phase "native build"
cargo nextest run --all-targets --no-fail-fast
phase "native tests"

echo "== build dist/"
scripts/build.sh
phase "dist build"

echo "== end-to-end tests in headless Chromium"
mkdir -p test-artifacts
node --test --test-concurrency=2 tests/e2e/
phase "browser tests"
