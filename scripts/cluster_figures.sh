#!/usr/bin/env bash
# Moves/s and p99 with one, two and three mancala-server processes on one PostgreSQL database,
# SQLite beside them, and three processes behind docker/nginx.cluster.conf (issue 19). Every run
# uses the same generator: mancala-loadgen --connect, rooms dealt out over the processes (in the
# direct runs both players of a room on its process; behind nginx, wherever nginx sends them).
#
#   scripts/cluster_figures.sh [BUILD_DIR] [ROOMS] [SECONDS] [ROUNDS]
#   scripts/cluster_figures.sh build 128 5 3        # the defaults
#
# Needs BUILD_DIR/server/mancala-server and mancala-loadgen, Debian's postgresql (initdb,
# pg_ctl) and nginx. Starts a throwaway PostgreSQL in a temporary folder (as root, it runs as
# `nobody`), never the system services; everything is stopped and removed at the end.
# Timing figures: run it on a quiet machine and quote `uptime` beside them (printed here).
set -euo pipefail

build_dir=${1:-build}
rooms=${2:-128}
seconds=${3:-5}
rounds=${4:-3}
server="$build_dir/server/mancala-server"
loadgen="$build_dir/server/mancala-loadgen"
for program in "$server" "$loadgen"; do
  [ -x "$program" ] || { echo "no $program: cmake --build $build_dir --target mancala-server mancala-loadgen" >&2; exit 1; }
done
pg_bin=${MANCALA_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$pg_bin/initdb" ] || { echo "no initdb: apt-get install postgresql, or set MANCALA_PG_BIN" >&2; exit 1; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "no nginx: apt-get install nginx" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mancala-figures-XXXXXX")
chmod 755 "$work"
as_owner=()
if [ "$(id -u)" -eq 0 ]; then  # PostgreSQL refuses to run as root
  chown nobody "$work"
  as_owner=(runuser -u nobody --)
fi
pg_port=55499
server_pids=()

stop_servers() {
  for pid in "${server_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  server_pids=()
}
cleanup() {
  stop_servers
  [ -f "$work/nginx.pid" ] && kill -TERM "$(cat "$work/nginx.pid")" 2>/dev/null || true
  "${as_owner[@]}" "$pg_bin/pg_ctl" stop -m fast -D "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The same PostgreSQL settings as the tests' (tests/cluster/temp_postgres.cpp); commits are
# durable (fsync and synchronous_commit on, PostgreSQL's defaults).
"${as_owner[@]}" "$pg_bin/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$work/initdb.log"
"${as_owner[@]}" "$pg_bin/pg_ctl" start -w -D "$work/pg" -l "$work/pg.log" \
  -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c max_connections=200" >/dev/null

# start_server DB PORT: one process with the generator's settings (no rate limit, quiet log).
start_server() {
  "$server" --port "$2" --db "$1" --threads 2 --rate-limit 1000000 --log-level warn --lease-ms 5000 \
    >"$work/server-$2.out" 2>"$work/server-$2.log" &
  server_pids+=($!)
  for _ in $(seq 100); do grep -q "^listening on" "$work/server-$2.out" && return 0; sleep 0.1; done
  echo "mancala-server on port $2 did not start:" >&2
  cat "$work/server-$2.log" >&2
  exit 1
}

# run_loadgen TITLE ADDRESSES: one loadgen run, its summary line kept for the table at the end.
run_loadgen() {
  echo "=== $1   ($(uptime))"
  "$loadgen" --connect "$2" --rooms "$rooms" --seconds "$seconds" --rounds "$rounds" | tee "$work/run.txt"
  echo "$1: $(grep '^median' "$work/run.txt")" >>"$work/summary.txt"
}

for processes in 1 2 3; do
  "${as_owner[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres "bench$processes"
  addresses=()
  for i in $(seq "$processes"); do
    start_server "postgresql://postgres@127.0.0.1:$pg_port/bench$processes" $((18080 + i))
    addresses+=("127.0.0.1:$((18080 + i))")
  done
  run_loadgen "PostgreSQL, $processes process(es)" "$(IFS=,; echo "${addresses[*]}")"
  stop_servers
done

# Three processes behind the cluster's own nginx config (the same rendering as nginx_test.cpp):
# nginx spreads the connections (least_conn), so the players of a room may sit on different
# processes and their messages cross the bus.
"${as_owner[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres bench_nginx
sed_args=(-e 's/listen 8080;/listen 127.0.0.1:18080;/')
for i in 1 2 3; do
  start_server "postgresql://postgres@127.0.0.1:$pg_port/bench_nginx" $((18080 + i))
  sed_args+=(-e "s/mancala-$i:8080/127.0.0.1:$((18080 + i))/")
done
sed "${sed_args[@]}" "$(dirname "$0")/../docker/nginx.cluster.conf" >"$work/site.conf"
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user nobody nogroup;"
cat >"$work/nginx.conf" <<EOF
daemon on; worker_processes 2; pid $work/nginx.pid; $user_line
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
  include $work/site.conf;
}
EOF
nginx -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log"
run_loadgen "PostgreSQL, 3 processes behind nginx (least_conn)" "127.0.0.1:18080"
kill -TERM "$(cat "$work/nginx.pid")"
stop_servers

start_server "$work/sqlite.db" 18081
run_loadgen "SQLite, 1 process" "127.0.0.1:18081"
stop_servers

echo "=== summary ($(nproc) cores, $(uptime))"
cat "$work/summary.txt"
