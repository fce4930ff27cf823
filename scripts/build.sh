#!/usr/bin/env bash
# Builds the release wasm and writes a self-contained static site to dist/ (works from any
# static host: relative paths only, no network requests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-wasm.sh

cargo build --release --lib --target wasm32-unknown-unknown
rm -rf dist.tmp
mkdir -p dist.tmp/www/pkg
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir dist.tmp/www/pkg target/wasm32-unknown-unknown/release/sgviz.wasm
cp index.html dist.tmp/
cp www/*.js www/*.css dist.tmp/www/
rm -rf dist
mv dist.tmp dist
echo "build: dist/ ready ($(du -sh dist | cut -f1))"
