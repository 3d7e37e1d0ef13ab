# Shared by run.sh and test.sh: install what is missing, then build. Both steps do nothing
# when nothing changed, so the two commands stay fast on a machine that is already set up.

# Debian 12 packages the build needs. libpq-dev is PostgreSQL's client library only (for
# --db postgresql://…); the default SQLite server needs no PostgreSQL server. libsodium hashes
# account passwords (Argon2id). libssl-dev (OpenSSL) encrypts and signs Web Push messages and
# carries them over TLS. jemalloc is mancala-server's malloc (server/CMakeLists.txt says why).
BUILD_PACKAGES=(g++ cmake ninja-build pkg-config libboost-dev nlohmann-json3-dev libsqlite3-dev
                libpq-dev libsodium-dev libssl-dev libgtest-dev libjemalloc-dev libicu-dev ccache)
# Extra packages the tests need: the browser tests drive Debian's Chromium with playwright-core;
# the deploy check reads docker/compose.yml with Python's YAML parser; the storage tests (and
# the cluster label) start a throwaway PostgreSQL server from Debian's `postgresql`
# (binaries in /usr/lib/postgresql/15/bin); the cluster label also runs docker/nginx.cluster.conf
# in Debian's `nginx` on loopback (its own prefix; the system service is not used).
TEST_PACKAGES=(nodejs npm chromium python3 python3-yaml postgresql nginx)

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

# ccache keeps compiled files between builds and between clones (CCACHE_BASEDIR makes the
# clone's own path not matter), so a second clean clone on the same machine, as CI makes,
# compiles only what changed. A first build on a fresh machine is as slow as without it.
use_compiler_cache() {
  CACHE_FLAGS=()
  if command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
    CACHE_FLAGS=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
}

# build [target...]: configure (Release, Ninja; quick once the cache exists), then build
# incrementally with two jobs. The browser tests need node and Chromium, which only test.sh
# installs: it sets MANCALA_BROWSER_TESTS=ON, and then a machine without them fails to
# configure instead of skipping them; run.sh and the container waive them.
build() {
  use_compiler_cache
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${CACHE_FLAGS[@]}" \
    -DMANCALA_BROWSER_TESTS="${MANCALA_BROWSER_TESTS:-OFF}" >/dev/null
  if [ $# -eq 0 ]; then
    cmake --build build -j 2
  else
    cmake --build build -j 2 --target "$@"
  fi
}

# The labels test.sh runs a second time under AddressSanitizer + UndefinedBehaviorSanitizer:
# everything with C++ of ours in it (the browser and deploy checks test none).
SANITIZER_LABELS='engine|server|protocol|cli|fuzz|cluster'

# The test executables in build folder $1: whatever Ninja links under tests/ (their tools,
# mancala and mancala-server, come along as dependencies). New test files need no entry here.
test_executables() {
  ninja -C "$1" -t targets all | grep -E '^tests/[^:[]*: CXX_EXECUTABLE_LINKER' |
    sed -E 's|^[^:]*/([^/:]+):.*|\1|'
}

# build_sanitized: the tests built with ASan+UBSan in build-asan (configured once, then
# incremental). UBSan stops at its first report (see CMakeLists.txt), so a finding fails a test.
build_sanitized() {
  use_compiler_cache
  if [ ! -f build-asan/CMakeCache.txt ]; then
    # -O1 -g1: line numbers in reports at a fraction of the compile time of -O2 -g.
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${CACHE_FLAGS[@]}" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DMANCALA_SANITIZE=address -DMANCALA_BROWSER_TESTS=OFF
  fi
  local targets
  mapfile -t targets < <(test_executables build-asan)
  cmake --build build-asan -j 2 --target "${targets[@]}"
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
