#!/usr/bin/env python3
"""Fails when a registered test has no TIMEOUT of its own.

Without one, CTest's default (1,500 s) or none at all lets a hung test run until CI's 90-minute
limit and take every later test with it. Usage: check_timeouts.py <ctest> <build-dir>.
"""
import json
import subprocess
import sys


def tests_without_timeout(listing):
    missing = []
    for test in listing.get("tests", []):
        properties = {p["name"]: p["value"] for p in test.get("properties", [])}
        timeout = properties.get("TIMEOUT")
        if timeout is None or float(timeout) <= 0:
            missing.append(test["name"])
    return missing


def main():
    ctest, build_dir = sys.argv[1], sys.argv[2]
    shown = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"],
                           check=True, capture_output=True, text=True)
    listing = json.loads(shown.stdout)
    count = len(listing.get("tests", []))
    if count == 0:
        sys.exit(f"ctest lists no tests in {build_dir}: nothing to check")
    missing = tests_without_timeout(listing)
    if missing:
        print(f"{len(missing)} of {count} tests have no TIMEOUT; give their add_test or "
              f"gtest_discover_tests call one:")
        for name in missing:
            print(f"  {name}")
        sys.exit(1)
    print(f"all {count} tests have a TIMEOUT")


if __name__ == "__main__":
    main()
