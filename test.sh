#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to every test: installs what is missing, builds
# with two jobs and runs the whole suite through CTest.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/common.sh

ensure_packages "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
ensure_web_test_packages
build
ctest --test-dir build --output-on-failure -j 2 "$@"
