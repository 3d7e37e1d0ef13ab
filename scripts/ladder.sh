#!/usr/bin/env bash
# The strength ladder of the computer players (a benchmark, printed, not a test): for every game,
# `mancala arena` between neighbouring levels, level 5 against level 1, and level 5 against plain
# UCT with the same time per move; Njaka of three and four seats as well (level A in one seat,
# level B in the others). One arena at a time; prints each arena's JSON line as it finishes,
# then a Markdown table for README.md.
#
#   scripts/ladder.sh [build/cli/mancala] [GAMES_SCALE]
#
# GAMES_SCALE (default 1) multiplies the number of games of every row: 0.1 for a quick look.
# LADDER_GAMES="oanquan:200 njaka4:100" runs only those entries (entry:games per row; the
# entries are cups duovallis njaka oanquan coin_duel njaka3 njaka4). LADDER_ROWS="5-4 5-uct"
# runs only those rows (default: 2-1 3-2 4-3 5-4 5-1 5-uct). LADDER_SEED (default 1, the seed of
# the tables in README.md) checks that a figure holds on other games.
# The level rows use the levels' playout budgets without a clock, so they repeat exactly for
# their seed whatever the load; the UCT rows are timed (UCT_MS per move, default 10) and vary
# with the machine's load from run to run.
set -euo pipefail

mancala=${1:-build/cli/mancala}
scale=${2:-1}
uct_ms=${UCT_MS:-10}
seed=${LADDER_SEED:-1}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

games() { awk -v n="$1" -v s="$scale" 'BEGIN { g = int(n * s + 0.5); print (g < 2 ? 2 : g) }'; }

row() {  # game options games a b [extra arena flags...]
  local game=$1 options=$2 count=$3 a=$4 b=$5
  shift 5
  "$mancala" arena "$game" --options "$options" --a "$a" --b "$b" --games "$(games "$count")" --seed "$seed" "$@" |
    tee -a "$results"
}

# Slow games (long matches, many decisions per turn, more seats) play 100 games a row, the
# others 200.
for entry in ${LADDER_GAMES:-cups:200 duovallis:200 njaka:200 oanquan:200 coin_duel:100 njaka3:100 njaka4:100}; do
  name=${entry%%:*}
  count=${entry##*:}
  case $name in
    njaka3) game=njaka options='{"players":3}' ;;
    njaka4) game=njaka options='{"players":4}' ;;
    *) game=$name options='{}' ;;
  esac
  for pair in ${LADDER_ROWS:-2-1 3-2 4-3 5-4 5-1 5-uct}; do
    a=${pair%%-*}
    b=${pair##*-}
    if [ "$b" = uct ]; then row "$game" "$options" "$count" "$a" "$b" --think-ms "$uct_ms"
    else row "$game" "$options" "$count" "$a" "$b"; fi
  done
done

python3 - "$results" <<'EOF'
import json, sys
print()
print("| game | A vs B | games | A won–lost–drawn | score rate of A | 95 % interval | think ms per move, A / B |")
print("|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    r = json.loads(line)
    seats = r['options'].get('players')
    game = r['game'] + (f" ({seats} seats)" if seats else "")
    b = "plain UCT" if r['b'] == "uct" else r['b']
    print(f"| {game} | {r['a']} vs {b} | {r['games']} | {r['wins']}–{r['losses']}–{r['draws']} "
          f"| {r['score_rate']:.3f} | {r['interval95'][0]:.3f}–{r['interval95'][1]:.3f} "
          f"| {r['think_ms']['a']:.1f} / {r['think_ms']['b']:.1f} |")
EOF
