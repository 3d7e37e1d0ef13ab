# Shared by run.sh and test.sh: install what is missing, then build. Both steps do nothing
# when nothing changed, so the two commands stay fast on a machine that is already set up.

# Debian 12 packages the build needs.
BUILD_PACKAGES=(g++ cmake ninja-build pkg-config libboost-dev nlohmann-json3-dev libsqlite3-dev
                libgtest-dev)
# Extra packages the tests need: the browser tests drive Debian's Chromium with playwright-core;
# the deploy check reads docker/compose.yml with Python's YAML parser.
TEST_PACKAGES=(nodejs npm chromium python3 python3-yaml)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

ensure_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  # Node.js from another source (nodesource) provides npm itself.
  if [[ " ${missing[*]} " == *" npm "* ]] && command -v npm >/dev/null 2>&1; then
    missing=("${missing[@]/npm}")
  fi
  local wanted=()
  for package in "${missing[@]}"; do [ -n "$package" ] && wanted+=("$package"); done
  [ ${#wanted[@]} -eq 0 ] && return 0
  echo "Installing: ${wanted[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${wanted[@]}"
}

# build [target...]: configure once (Release, Ninja), then build incrementally with two jobs.
build() {
  if [ ! -f build/CMakeCache.txt ]; then
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
  fi
  if [ $# -eq 0 ]; then
    cmake --build build -j 2
  else
    cmake --build build -j 2 --target "$@"
  fi
}

# The browser tests' npm packages (playwright-core, which drives Debian's Chromium; it never
# downloads a browser). `npm ci` runs only when package-lock.json changed since the last install.
ensure_web_test_packages() {
  local dir=tests/web
  [ -f "$dir/package-lock.json" ] || return 0
  if [ ! -f "$dir/node_modules/.package-lock.json" ] ||
     [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  fi
}
