#!/usr/bin/env bash
# Installs cargo-nextest at the pinned version when missing (the native tests run through it: the
# tests of all binaries share both cores instead of running one binary after another); idempotent.
exec "$(dirname "$0")/setup-cargo-tool.sh" cargo-nextest nextest 0.9.143
