#!/usr/bin/env bash
# The strength ladder of the computer players (a benchmark, printed, not a test): for every game,
# `mancala arena` between neighbouring levels, level 5 against level 1, and level 5 against plain
# UCT with the same time per move. One arena at a time; prints each arena's JSON line as it
# finishes, then a Markdown table for README.md.
#
#   scripts/ladder.sh [build/cli/mancala] [GAMES_SCALE]
#
# GAMES_SCALE (default 1) multiplies the number of games of every row: 0.1 for a quick look.
# LADDER_GAMES="oanquan:200 coin_duel:100" runs only those games (game:games per row).
# The level rows use the levels' playout budgets without a clock, so they repeat exactly for
# their seed; the UCT rows are timed (UCT_MS per move) and vary a little from run to run.
set -euo pipefail

mancala=${1:-build/cli/mancala}
scale=${2:-1}
uct_ms=${UCT_MS:-10}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

games() { awk -v n="$1" -v s="$scale" 'BEGIN { g = int(n * s + 0.5); print (g < 2 ? 2 : g) }'; }

row() {  # game games a b [extra arena flags...]
  local game=$1 count=$2 a=$3 b=$4
  shift 4
  "$mancala" arena "$game" --a "$a" --b "$b" --games "$(games "$count")" --seed 1 "$@" | tee -a "$results"
}

# Slow games (long matches, many decisions per turn) play 100 games a row, the others 200.
for entry in ${LADDER_GAMES:-cups:200 duovallis:200 njaka:200 oanquan:200 coin_duel:100}; do
  game=${entry%%:*}
  count=${entry##*:}
  row "$game" "$count" 2 1
  row "$game" "$count" 3 2
  row "$game" "$count" 4 3
  row "$game" "$count" 5 4
  row "$game" "$count" 5 1
  row "$game" 50 5 uct --think-ms "$uct_ms"
done

python3 - "$results" <<'EOF'
import json, sys
print()
print("| game | A vs B | games | A won–lost–drawn | score rate of A | 95 % interval | think ms A / B |")
print("|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(f"| {r['game']} | {r['a']} vs {r['b']} | {r['games']} | {r['wins']}–{r['losses']}–{r['draws']} "
          f"| {r['score_rate']:.3f} | {r['interval95'][0]:.3f}–{r['interval95'][1]:.3f} "
          f"| {r['think_ms']['a']:.1f} / {r['think_ms']['b']:.1f} |")
EOF
