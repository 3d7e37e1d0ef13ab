#!/usr/bin/env bash
# Two mancala-server builds compared on a noisy machine: single mancala-loadgen rounds, the two
# binaries in turn, so that both see the same spells of noise. One line per run: full-load
# moves/s, the echo's, the ratio, the half-load p99 against its limit, and the files left.
#   server/bench/alternate.sh PAIRS before/mancala-server after/mancala-server [loadgen options]
# The last run's whole output for each binary is kept in $TMPDIR/alternate-last-<name>.txt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
loadgen="${LOADGEN:-$here/../../build/server/mancala-loadgen}"
pairs="$1" before="$2" after="$3"
shift 3
for _ in $(seq "$pairs"); do
  for server in "$before" "$after"; do
    out="$("$loadgen" --server "$server" --rooms 128 --seconds 5 --rounds 1 "$@" 2>&1)"
    name="$(basename "$(dirname "$server")")-$(basename "$server")"
    printf '%s\n' "$out" > "${TMPDIR:-/tmp}/alternate-last-$name.txt"
    full="$(grep 'mancala-server, full load' <<< "$out" | awk '{print $4}')"
    echo_full="$(grep 'echo server, full load' <<< "$out" | awk '{print $5}')"
    figures="$(grep '^    durable' <<< "$out" |
      sed 's/.*= \([0-9.]*\); p99 at half load \([0-9.]*\) ms, limit \([0-9.]*\) ms.*/ratio \1, half-load p99 \2 ms (limit \3)/')"
    files="$(grep 'on disk' <<< "$out" | head -1 | sed 's/ *on disk: //')"
    echo "$(date -u +%T) $name: full $full/s, echo $echo_full/s, $figures; $files"
  done
done
