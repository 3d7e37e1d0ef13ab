#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to every test: installs what is missing, builds
# with two jobs and runs the whole suite through CTest, then the C++ tests once more with
# AddressSanitizer, UndefinedBehaviorSanitizer and the standard library's assertions
# (-D_GLIBCXX_ASSERTIONS, as hardened distribution builds have them) in build-asan.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh

# Where CI's time goes: each stage's seconds, printed as it ends and once more at the end.
STAGE_TIMES=()
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  STAGE_TIMES+=("$name: $((SECONDS - start)) s")
  echo "== stage $name took $((SECONDS - start)) s"
}

stage install ensure_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
stage web-packages ensure_web_test_packages
MANCALA_BROWSER_TESTS=ON stage build build
stage tests ctest --test-dir build --output-on-failure -j 2 "$@"

# The same C++ tests again under ASan+UBSan, in their own build folder (browser tests left out),
# but not the postgres: twins of the server tests: they run the same rooms, hub and transport
# over the other database, whose own code the sanitizers still see through storage_test's
# PostgreSQL half and the cluster label. Left out, they save about a fifth of the stage: in a
# Release run (4 December) the 49 twins took 170 s of the C++ tests' 768 s.
# MANCALA_SKIP_SANITIZERS=1 skips this stage for a quick local run; CI always runs it.
if [ "${MANCALA_SKIP_SANITIZERS:-0}" != 1 ]; then
  stage sanitized-build build_sanitized
  UBSAN_OPTIONS=print_stacktrace=1 \
    stage sanitized-tests ctest --test-dir build-asan --output-on-failure -j 2 -L "$SANITIZER_LABELS" -E '^postgres:'
fi
printf '== %s\n' "${STAGE_TIMES[@]}"
