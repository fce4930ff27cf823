#!/usr/bin/env bash
# The whole test suite: native unit and statistical tests, CLI tests, then end-to-end tests in
# headless Chromium against the built dist/. Installs what it needs first (idempotently).
# The release build of dist/ runs beside the native build and tests: its LTO and codegen run on one
# thread, so alone it leaves a core idle, which the native work fills; started with the native build
# it also fills the cores the build leaves idle on its serial steps (the library's and tests/all.rs's
# front ends) (BENCHMARKS.md, "CI time" and "CI time, sixteenth round (native)").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-wasm.sh
scripts/setup-browser.sh
scripts/setup-nextest.sh

# Each phase prints its wall time (the budget: all of `make test` under 10 minutes on 2 cores).
phase_start=$SECONDS
phase() { echo "== $1 took $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }

# A CI run builds from a clean clone once: incremental compilation's caches only cost time there
# (with [profile.test]'s line tables, 214.7 instead of 240.2 CPU s for the native build;
# BENCHMARKS.md "CI time", third round). Local runs keep it for fast rebuilds.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi

echo "== build dist/ (beside the native build and tests; its output in target/dist-build.log)"
mkdir -p target
( scripts/build.sh && echo "== dist build took $((SECONDS - phase_start)) s (wall, beside the native work)" ) > target/dist-build.log 2>&1 &
dist=$!

echo "== native tests (unit, statistical, CLI) through cargo-nextest: tests/all.rs (with the unit tests, tests/unit/) and three small binaries"
# --tests --examples, not --all-targets: --all-targets names --lib and --bins explicitly, which
# overrides their `test = false` in Cargo.toml and compiles the library a second time with
# cfg(test) for an empty harness (issue 23; BENCHMARKS.md "CI time", sixth round).
cargo test --tests --examples --no-run || { wait "$dist" || true; echo "== native build failed"; exit 1; }
phase "native build (dist build beside it)"

native=0
# Its output is kept (target/nextest.log) for the table of the slowest tests below.
cargo nextest run --tests --examples --no-fail-fast 2>&1 | tee target/nextest.log || native=$?
phase "native tests (dist build beside them)"
echo "== the 25 slowest native tests (wall s, two at a time; the whole log in target/nextest.log)"
grep -E '^ +(PASS|FAIL|TIMEOUT) \[' target/nextest.log | sed -E 's/^ +[A-Z]+ \[ *([0-9.]+)s\] \( *[0-9]+\/ *[0-9]+\) /\1 /' | sort -rn | uniq | head -n 25 || true
if ! wait "$dist"; then
  cat target/dist-build.log
  echo "== dist build failed"
  exit 1
fi
tail -n 2 target/dist-build.log
phase "dist build (what was left of it)"
[ "$native" -eq 0 ] || { echo "== native tests failed"; exit "$native"; }

echo "== end-to-end tests in headless Chromium"
mkdir -p test-artifacts
# One Chromium for the whole phase: every file connects to it for a context of its own instead of
# launching its own Chromium (≈ 0.6 CPU s per file; BENCHMARKS.md "CI time", fifth round).
# Beside the TAP on stdout, tests/e2e/file-times.mjs writes each file's test-seconds (TAP names no file).
browser=0
node tests/e2e/shared-browser.mjs node --test --test-concurrency=2 \
  --test-reporter=tap --test-reporter-destination=stdout \
  --test-reporter=./tests/e2e/file-times.mjs --test-reporter-destination=test-artifacts/e2e-file-times.txt \
  tests/e2e/ || browser=$?
phase "browser tests"
echo "== browser test-seconds per file (test-artifacts/e2e-file-times.txt)"
cat test-artifacts/e2e-file-times.txt || true
exit "$browser"
