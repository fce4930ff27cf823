#!/usr/bin/env bash
# `make bench`: sampler throughput (native and wasm under Node), browser frame times and start-up,
# bundle sizes; prints a Markdown table and rewrites BENCHMARKS.md. Asserts nothing about time.
# Extra arguments go to bench/bench.mjs (--quick: short runs, no BENCHMARKS.md; --no-browser).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-wasm.sh
scripts/setup-browser.sh
cargo build --release --bin sgviz-bench --bin sgviz
scripts/build.sh
# BENCH_QUICK=1 make bench (about 8 minutes): only the class-time table (every lesson step until its
# claims hold, at most 15 s; the heaviest presets for 20 s), printed, BENCHMARKS.md left alone.
if [[ -n "${BENCH_QUICK:-}" ]]; then
  BENCH_QUICK=1 node bench/class-time.mjs
  exit 0
fi
node bench/bench.mjs "$@"
# SGAIS vs nested sampling vs full-data AIS (issue 22), short: linear regression at N = 10⁴, printed;
# `node bench/evidence-methods.mjs` (10⁴ and 10⁵, three models) rewrites its BENCHMARKS.md section.
node bench/evidence-methods.mjs --quick
# Frame times while background jobs run, and the paper-scale shift demo's wall time.
[[ " $* " == *" --quick "* || " $* " == *" --no-browser "* ]] || node bench/frames-background.mjs
# Class time (issue 26): the workers' rate (datum evaluations per second, which the class-time test restates),
[[ " $* " == *" --quick "* || " $* " == *" --no-browser "* ]] || node bench/worker-rate.mjs
# … and the analysis worker's rate (sweep gradient evaluations per CPU second, also restated there),
node bench/sweep-rate.mjs --write
# frame intervals per preset with its jobs, and wall time to each lesson step's claims.
[[ " $* " == *" --quick "* || " $* " == *" --no-browser "* ]] || node bench/class-time.mjs
