#!/usr/bin/env bash
# Record `sgviz sample` / `defaults` / `evidence` outputs for a fixed set of settings into DIR, with
# the wall-time fields removed, so a refactoring can be checked for byte-identical behaviour:
#   scripts/cli-snapshot.sh /tmp/before; (refactor); scripts/cli-snapshot.sh /tmp/after; diff -r /tmp/before /tmp/after
# Uses target/release/sgviz (build it first with `cargo build --release --bin sgviz`).
set -euo pipefail
out=${1:?usage: scripts/cli-snapshot.sh DIR}
bin=${SGVIZ:-target/release/sgviz}
mkdir -p "$out"
# Drop wall-clock fields (`seconds`, `cpu_seconds`, and any `*_seconds` key) from every JSON line.
strip() { python3 -c '
import json, sys
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if not (k == "seconds" or k.endswith("_seconds"))}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
for line in sys.stdin:
    line = line.strip()
    if line:
        print(json.dumps(clean(json.loads(line)), sort_keys=True))
'; }
sample() { local name=$1; shift; "$bin" sample "$@" | strip > "$out/sample-$name.json" || echo "exit $?" >> "$out/sample-$name.json"; }
sample sgld-gaussian          --target gaussian --sampler sgld    --steps 5000 --seed 1 --burn-in 500
sample sgld-rmsprop-logreg    --target logreg   --sampler sgld    --steps 3000 --seed 2 --set sgld_precond=1
sample sgld-poly-mixture      --target mixture  --sampler sgld    --steps 5000 --seed 3 --set sgld_schedule=1
sample sgfs_f-logreg          --target logreg   --sampler sgfs_f  --steps 3000 --seed 4
sample sgfs_d-logreg          --target logreg   --sampler sgfs_d  --steps 3000 --seed 5
sample sghmc-banana           --target banana   --sampler sghmc   --steps 3000 --seed 6
sample osgfs-logreg           --target logreg   --sampler osgfs   --steps 3000 --seed 7
sample mala-mixture           --target mixture  --sampler mala    --steps 3000 --seed 8
sample hmc-banana             --target banana   --sampler hmc     --steps 1000 --seed 9
sample bps-gaussian           --target gaussian --sampler bps     --steps 3000 --seed 10
sample sbps-logreg            --target logreg   --sampler sbps    --steps 3000 --seed 11
sample psbps-logreg           --target logreg   --sampler psbps   --steps 3000 --seed 12
sample lipsbps-logreg         --target logreg   --sampler lipsbps --steps 3000 --seed 13
sample sbps-mixture           --target mixture  --sampler sbps    --steps 3000 --seed 14
for pair in "logreg sgld" "gaussian sbps" "banana sghmc" "mixture sgfs_f" "logreg_dd psbps"; do
  set -- $pair
  "$bin" defaults --target "$1" --sampler "$2" | strip > "$out/defaults-$1-$2.json"
done
"$bin" evidence --target linreg --seed 1 | strip > "$out/evidence-linreg.json"
