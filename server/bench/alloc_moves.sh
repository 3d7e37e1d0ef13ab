#!/usr/bin/env bash
# Allocations per move of a mancala-server for Cups, Njaka's Mancala and Duovallis: for each, a
# fresh server on a fresh database under count_allocs.so, 1,000 moves after 100 of warm-up.
# Counts, not times, so a busy machine does not change them.
#   server/bench/alloc_moves.sh [path/to/mancala-server]   (default: build/server/mancala-server)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
server="${1:-$here/../../build/server/mancala-server}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
gcc -O2 -shared -fPIC -o "$work/count_allocs.so" "$here/count_allocs.c" -lpthread -ldl
port=18731
for game in cups njaka duovallis; do
  port=$((port + 1))
  ALLOC_COUNT_FILE="$work/allocs" LD_PRELOAD="$work/count_allocs.so" \
    "$server" --port "$port" --db "$work/$game.db" --rate-limit 1000000 --log-level warn > /dev/null &
  pid=$!
  for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  node --experimental-websocket --no-warnings "$here/alloc_moves.mjs" "$port" "$game" '{}' 100 1000 "cat $work/allocs"
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
