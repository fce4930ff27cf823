#!/usr/bin/env bash
# Installs a cargo subcommand at a pinned version when missing: setup-cargo-tool.sh CRATE SUBCOMMAND
# VERSION (e.g. cargo-nextest nextest 0.9.143). Idempotent: skips when that version is present.
set -euo pipefail
crate=$1 subcommand=$2 wanted=$3
have=$(cargo "$subcommand" --version 2>/dev/null | awk 'NR == 1 {print $2}' || true)
if [ "$have" != "$wanted" ]; then
  echo "setup: installing $crate $wanted (found '${have:-none}'; takes a few minutes)"
  cargo install "$crate" --version "$wanted" --locked
fi
