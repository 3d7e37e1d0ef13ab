#!/usr/bin/env bash
# A long fuzzing run of one target: tests/fuzz/run.sh <fuzz_protocol|fuzz_engine|fuzz_record|fuzz_http> <seconds> [libFuzzer flags]
# Builds the libFuzzer binaries with clang in build-fuzz (once, then incrementally), starts
# from the seed corpus and keeps what it finds in build-fuzz/corpus/<target>; a crash is
# written to build-fuzz/artifacts/<target>/ and ends the run with a non-zero status.
# One process on purpose: the machine's two cores are shared.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: tests/fuzz/run.sh <target> <seconds> [libFuzzer flags]}
seconds=${2:?usage: tests/fuzz/run.sh <target> <seconds> [libFuzzer flags]}
shift 2

if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMANCALA_FUZZ=ON \
    -DMANCALA_BROWSER_TESTS=OFF
fi
cmake --build build-fuzz -j 2 --target "$target"

work=build-fuzz/corpus/$target
artifacts=build-fuzz/artifacts/$target
mkdir -p "$work" "$artifacts"
exec "build-fuzz/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$@" "$work" "tests/fuzz/corpus/$target"
