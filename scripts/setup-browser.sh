#!/usr/bin/env bash
# Installs what the browser tests need when missing: Debian's chromium + chromium-driver and the
# npm packages pinned in package-lock.json. Idempotent: skips what is present.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "setup: installing chromium and chromium-driver from Debian"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi

stamp=node_modules/.sgviz-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" > "$stamp"
fi
