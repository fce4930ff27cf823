#!/usr/bin/env bash
# Builds the release wasm and writes a self-contained static site to dist/ (works from any
# static host: relative paths only, no network requests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-wasm.sh

cargo build --release -p sgviz --lib --target wasm32-unknown-unknown
rm -rf dist.tmp
mkdir -p dist.tmp/www/pkg
wasm-bindgen --target web --no-typescript --remove-name-section --out-dir dist.tmp/www/pkg target/wasm32-unknown-unknown/release/sgviz.wasm
cp index.html dist.tmp/
cp www/*.js www/*.css dist.tmp/www/
mkdir -p dist.tmp/www/figures
cp www/figures/*.js dist.tmp/www/figures/
# The offline service worker lives at the site root (its scope must cover index.html): it gets
# the list of every file of the site and a version from their contents.
rm dist.tmp/www/sw.js
files=$(cd dist.tmp && find www -type f | sort | sed "s|^|'./|; s|$|'|" | paste -sd, -)
version=$(cd dist.tmp && find . -type f -print0 | sort -z | xargs -0 cat | cksum | cut -d' ' -f1)
sed -e "s|^const VERSION = 'sgviz-dev';|const VERSION = 'sgviz-$version';|" \
    -e "s|^const FILES = \['./'\];|const FILES = ['./', $files];|" www/sw.js > dist.tmp/sw.js
rm -rf dist
mv dist.tmp dist
echo "build: dist/ ready ($(du -sh dist | cut -f1))"
