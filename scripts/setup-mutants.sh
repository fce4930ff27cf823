#!/usr/bin/env bash
# Installs cargo-mutants at the pinned version when missing (for `make mutants`); idempotent.
exec "$(dirname "$0")/setup-cargo-tool.sh" cargo-mutants mutants 27.0.0
