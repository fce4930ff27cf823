#!/usr/bin/env bash
# Installs cargo-mutants at the pinned version when missing (for `make mutants`). Idempotent: skips
# when that version is present. Building it takes a few minutes.
set -euo pipefail
wanted=27.0.0
have=$(cargo mutants --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$wanted" ]; then
  echo "setup: installing cargo-mutants $wanted (found '${have:-none}'; takes a few minutes)"
  cargo install cargo-mutants --version "$wanted" --locked
fi
