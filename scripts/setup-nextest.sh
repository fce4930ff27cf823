#!/usr/bin/env bash
# Installs cargo-nextest at the pinned version when missing (the native tests run through it:
# tests of all binaries share both cores instead of running one binary after another).
# Idempotent: skips when that version is present.
set -euo pipefail
wanted=0.9.143
have=$(cargo nextest --version 2>/dev/null | awk 'NR == 1 {print $2}' || true)
if [ "$have" != "$wanted" ]; then
  echo "setup: installing cargo-nextest $wanted (found '${have:-none}'; takes a few minutes)"
  cargo install cargo-nextest --version "$wanted" --locked
fi
