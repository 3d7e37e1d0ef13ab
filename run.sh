#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running server: installs what is missing,
# builds, and starts mancala-server on http://127.0.0.1:8080 with its SQLite file mancala.db.
# Extra arguments go to mancala-server (e.g. ./run.sh --port 9000).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh

ensure_packages "${BUILD_PACKAGES[@]}"
build

if [ -x build/server/mancala-server ]; then
  exec build/server/mancala-server --static web-client "$@"
fi
echo "mancala-server is not built yet; here is what the engine offers (build/cli/mancala games):"
build/cli/mancala games
