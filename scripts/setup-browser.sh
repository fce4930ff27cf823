#!/usr/bin/env bash
# Installs what the browser tests need when missing: Debian's chromium + chromium-driver, its
# chromium-headless-shell (the tests' browser), and the npm packages pinned in package-lock.json.
# Idempotent: skips what is present.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "setup: installing chromium and chromium-driver from Debian"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# The browser tests run in Debian's headless-only build of the same Chromium when it is installed
# (tests/e2e/harness.mjs `testChromium`; less CPU per test file, BENCHMARKS.md "CI time", seventh
# round, browser); where the package is not available they run in the full chromium above.
if [ ! -x /usr/bin/chromium-headless-shell ]; then
  echo "setup: installing chromium-headless-shell from Debian (the browser tests' Chromium)"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium-headless-shell >/dev/null \
    || echo "setup: chromium-headless-shell not available; the browser tests use /usr/bin/chromium"
fi

stamp=node_modules/.sgviz-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
