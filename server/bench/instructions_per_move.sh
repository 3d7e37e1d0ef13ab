#!/usr/bin/env bash
# Instructions per move of a mancala-server for Cups, Njaka's Mancala and Duovallis, counted by
# valgrind's callgrind in user space (the server's code and its libraries; not the kernel's):
# for each game, a fresh server on a fresh database under callgrind, 1,000 moves after 100 of
# warm-up. Counts, not times, so they repeat within about 1 % on a busy machine too, where a
# timed run of mancala-loadgen varies by 10-20 %: the figure to compare two builds' CPU per
# move by, when the difference is small. New games and Plex! claims are included, as in
# alloc_moves.sh, whose driver this shares.
#   server/bench/instructions_per_move.sh [path/to/mancala-server]   (default: build/server/mancala-server)
# Needs valgrind (apt-get install valgrind). Takes about a minute.
set -euo pipefail

# The counter alloc_moves.mjs runs before and after the moves: callgrind dumps what it counted
# since its last dump, so the running total is the sum of every dump so far.
if [[ "${1:-}" == "--total" ]]; then
  pid="$2" base="$3"
  dumps() { { compgen -G "$base.*" || true; } | wc -l; }
  before=$(dumps)
  callgrind_control -d "$pid" > /dev/null 2>&1
  for _ in $(seq 100); do [[ $(dumps) -gt $before ]] && break; sleep 0.1; done
  cat "$base".* | awk '/^summary:/ { total += $2 } END { printf "%.0f\n", total }'
  exit 0
fi

command -v valgrind > /dev/null || { echo "instructions_per_move.sh needs valgrind: apt-get install valgrind" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
server="${1:-$here/../../build/server/mancala-server}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=18751
for game in cups njaka duovallis; do
  port=$((port + 1))
  valgrind --tool=callgrind --callgrind-out-file="$work/$game.cg" \
    "$server" --port "$port" --db "$work/$game.db" --rate-limit 1000000 --log-level warn > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  node --experimental-websocket --no-warnings "$here/alloc_moves.mjs" "$port" "$game" '{}' 100 1000 \
    "$here/instructions_per_move.sh --total $pid $work/$game.cg" instructions
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
