#!/usr/bin/env bash
# Runs each test that once failed only on a loaded machine many times in a row (20 unless told)
# while `stress -c 2` keeps both cores busy: the check that they no longer flake. Not part of
# CI (it takes about an hour); run it after changing a test below or the code it waits on.
#   scripts/soak.sh [runs] [cpp|web|all]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

runs=${1:-20}
which=${2:-all}

# Each failed once in CI or in a full run under load (the notes of earlier sessions name each).
CPP_TESTS=(
  Chat.PlayersAndSpectatorsHaveTheirOwnChannels
  Hardening.AcceptBacksOffAtTheDescriptorLimit
  Hardening.APlayerMayHoldOnlyAFewWaitingRooms
  Hardening.RateLimitCountsMessagesWhenTheyArrive
  Hardening.AClientThatStopsReadingDelaysNoOtherRoom
  Durability.SigkillAfterAcknowledgedMovesLosesNothing
  Bots.NjakaOfThreeAndFourWithTwoAndThreeBots
  Analysis.AnalysesResumedAfterARestartKeepToTheGlobalCap
  PostgresServer.SigkillAfterAcknowledgedMovesLosesNothing
  Cluster.ADatabaseRestartLongerThanTheLeaseStopsNoneOfThreeProcesses
  PgBus.LongMessagesArriveWholeAndInOrder
)
WEB_TESTS=(web_room_clocks web_plex web_room_page web_accounts web_chat)

# ctest -R takes one regular expression: the names joined by "|", each anchored at its end
# (the PostgreSQL twins, "postgres:Name", are matched too).
pattern_of() {
  local joined
  joined=$(printf '%s$|' "$@")
  echo "${joined%|}"
}

ensure_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}" stress
ensure_web_test_packages
MANCALA_BROWSER_TESTS=ON build

stress -c 2 >/dev/null 2>&1 &
stress_pid=$!
trap 'kill $stress_pid 2>/dev/null; pkill -P $stress_pid 2>/dev/null || true' EXIT

tests=()
case $which in
  cpp) tests=("${CPP_TESTS[@]}") ;;
  web) tests=("${WEB_TESTS[@]}") ;;
  all) tests=("${CPP_TESTS[@]}" "${WEB_TESTS[@]}") ;;
  *) echo "usage: scripts/soak.sh [runs] [cpp|web|all]" >&2; exit 2 ;;
esac
# One test at a time beside stress: the load is stress's, not the tests' own on each other.
ctest --test-dir build -R "$(pattern_of "${tests[@]}")" --repeat "until-fail:$runs" \
  --output-on-failure -j 1
echo "== every test above passed $runs runs in a row under stress -c 2"
