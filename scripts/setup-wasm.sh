#!/usr/bin/env bash
# Installs the WebAssembly toolchain when missing: the wasm32 target and wasm-bindgen-cli at
# exactly the wasm-bindgen version pinned in Cargo.lock. Idempotent: skips what is present.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

wanted=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$wanted" ]; then
  echo "setup: installing wasm-bindgen-cli $wanted (found '${have:-none}'; takes about 3 minutes)"
  cargo install wasm-bindgen-cli --version "$wanted" --locked || cargo install wasm-bindgen-cli --version "$wanted"
fi
