#!/usr/bin/env bash
# Builds dist/ and serves it on http://127.0.0.1:${PORT:-8000}.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
port="${PORT:-8000}"
echo "sgviz: serving on http://127.0.0.1:${port}/ (Ctrl-C to stop)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory dist
