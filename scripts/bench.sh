#!/usr/bin/env bash
# `make bench`: sampler throughput (native and wasm under Node), browser frame times and start-up,
# bundle sizes; rewrites BENCHMARKS.md. Asserts nothing about time.
# Quiet by default (issue 26: it printed a flood): one line per stage, each stage's progress and
# build output in test-artifacts/bench/bench.log, and the stages' tables printed together at the
# end (also kept in test-artifacts/bench/NN-stage.md). VERBOSE=1 make bench streams everything.
# Extra arguments go to bench/bench.mjs (--quick: short runs, no BENCHMARKS.md; --no-browser).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=test-artifacts/bench
LOG=$OUT/bench.log
mkdir -p "$OUT"
rm -f "$OUT"/[0-9][0-9]-*.md
: > "$LOG"
stage_no=0
# stage NAME CMD…: runs CMD; quiet, its stdout (the table) to $OUT/NN-NAME.md and its stderr to the log.
stage() {
  local name=$1
  shift
  stage_no=$((stage_no + 1))
  local table
  table=$(printf '%s/%02d-%s.md' "$OUT" "$stage_no" "$name")
  if [[ -n "${VERBOSE:-}" ]]; then
    "$@" | tee "$table"
    return
  fi
  local started=$SECONDS
  printf 'bench: %-22s … ' "$name"
  if "$@" > "$table" 2>> "$LOG"; then
    echo "done ($((SECONDS - started)) s)"
  else
    echo "FAILED; the end of $LOG:"
    tail -n 30 "$LOG"
    exit 1
  fi
}
# quiet NAME CMD…: a stage whose output is all progress (setup, builds): everything to the log.
quiet() {
  local name=$1
  shift
  if [[ -n "${VERBOSE:-}" ]]; then "$@"; return; fi
  local started=$SECONDS
  printf 'bench: %-22s … ' "$name"
  if "$@" >> "$LOG" 2>&1; then echo "done ($((SECONDS - started)) s)"; else echo "FAILED; the end of $LOG:"; tail -n 30 "$LOG"; exit 1; fi
}
browser() { [[ " $* " != *" --quick "* && " $* " != *" --no-browser "* ]]; }
quiet setup-wasm scripts/setup-wasm.sh
quiet setup-browser scripts/setup-browser.sh
quiet cargo-build cargo build --release --bin sgviz-bench --bin sgviz
quiet build-dist scripts/build.sh
# BENCH_QUICK=1 make bench (about 8 minutes): only the class-time table (every lesson step until its
# claims hold, at most 15 s; the heaviest presets for 20 s), printed, BENCHMARKS.md left alone.
if [[ -n "${BENCH_QUICK:-}" ]]; then
  stage class-time env BENCH_QUICK=1 node bench/class-time.mjs
else
  stage throughput node bench/bench.mjs "$@"
  # SGAIS vs nested sampling vs full-data AIS (issue 22), short: linear regression at N = 10⁴, printed;
  # `node bench/evidence-methods.mjs` (10⁴ and 10⁵, three models) rewrites its BENCHMARKS.md section.
  stage evidence-methods node bench/evidence-methods.mjs --quick
  # Frame times while background jobs run, and the paper-scale shift demo's wall time.
  if browser "$@"; then stage frames-background node bench/frames-background.mjs; fi
  # Class time (issue 26): the workers' rate (datum evaluations per second, which the class-time test restates),
  if browser "$@"; then stage worker-rate node bench/worker-rate.mjs; fi
  # … and the analysis worker's rate (sweep gradient evaluations per CPU second, also restated there),
  stage sweep-rate node bench/sweep-rate.mjs --write
  # frame intervals per preset with its jobs, and wall time to each lesson step's claims.
  if browser "$@"; then stage class-time node bench/class-time.mjs; fi
fi
if [[ -z "${VERBOSE:-}" ]]; then
  echo
  for table in "$OUT"/[0-9][0-9]-*.md; do
    cat "$table"
    echo
  done
  echo "bench: tables above (and in $OUT/); progress and build output in $LOG"
fi
