#!/usr/bin/env bash
# The container check (docker/README.md, "Check the image"): builds the image on Debian's own
# Docker and runs it as an operator would, with a root-owned host folder at /data and an extra
# --port, then checks /healthz, Docker's health status, the files' owner, the online backup, a
# clean stop, and docker/compose.yml through Debian's docker-compose. Installs docker.io,
# docker-compose and debootstrap when missing, starts a daemon when none runs, and makes the
# debian:bookworm and debian:bookworm-slim bases from Debian's mirror with debootstrap when they
# are missing (these machines reach no image registry). Takes minutes: not in the default run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

IMAGE=mancala-online:check
WORK=$(mktemp -d /tmp/mancala-container-check.XXXXXX)
CONTAINER=mancala-check-$$
COMPOSE_PROJECT=mancalacheck$$
# Debian's client, not a newer one a machine may have earlier on its PATH.
DOCKER=/usr/bin/docker

say() { echo "check_container: $*"; }
fail() { say "FAILED: $*"; exit 1; }

cleanup() {
  "$DOCKER" rm -f "$CONTAINER" >/dev/null 2>&1 || true
  docker-compose -p "$COMPOSE_PROJECT" -f docker/compose.yml down -v >/dev/null 2>&1 || true
  as_root rm -rf "$WORK"
}
trap cleanup EXIT

# wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds, or fails naming WHAT.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail "no $what within $seconds s"
    sleep 1
  done
}

ensure_daemon() {
  ensure_packages docker.io docker-compose debootstrap curl
  if ! "$DOCKER" info >/dev/null 2>&1; then
    say "starting dockerd (log: /tmp/mancala-dockerd.log)"
    as_root sh -c 'nohup dockerd >/tmp/mancala-dockerd.log 2>&1 &'
    wait_for 60 "Docker daemon" "$DOCKER" info
  fi
}

# The apt mirror this machine uses, for debootstrap (deb.debian.org when none is found).
debian_mirror() {
  local mirror
  mirror=$(grep -hvE '^\s*#' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
             /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -oE 'https?://[^ ]+/debian/?$' | head -n 1 || true)
  echo "${mirror:-http://deb.debian.org/debian}"
}

# debian:bookworm from a minimal debootstrap, and -slim from the same tree without the
# documentation, as Docker's own images are made.
ensure_bases() {
  "$DOCKER" image inspect debian:bookworm >/dev/null 2>&1 &&
    "$DOCKER" image inspect debian:bookworm-slim >/dev/null 2>&1 && return 0
  local root="$WORK/rootfs"
  say "making debian:bookworm with debootstrap from $(debian_mirror)"
  as_root debootstrap --variant=minbase bookworm "$root" "$(debian_mirror)" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -n 20 "$WORK/debootstrap.log"; fail "debootstrap"; }
  as_root rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/archives/*.deb
  as_root tar -C "$root" -c . | "$DOCKER" import - debian:bookworm >/dev/null
  as_root rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
  as_root tar -C "$root" -c . | "$DOCKER" import - debian:bookworm-slim >/dev/null
}

health_of() { "$DOCKER" inspect -f '{{.State.Health.Status}}' "$1"; }
is_healthy() { [ "$(health_of "$1")" = healthy ]; }

check_image() {
  local data="$WORK/data"
  as_root mkdir -p "$data" # as Docker makes a missing host folder: owned by root
  [ "$(stat -c %u "$data")" = 0 ] || fail "the host folder should start owned by root"
  "$DOCKER" run -d --name "$CONTAINER" -p 127.0.0.1::9090 -v "$data:/data" --health-interval 2s \
    "$IMAGE" --port 9090 >/dev/null
  local port
  port=$("$DOCKER" port "$CONTAINER" 9090/tcp | head -n 1 | sed 's/.*://')
  wait_for 60 "/healthz answer on port 9090 (host port $port)" curl --fail --silent "http://127.0.0.1:$port/healthz"
  wait_for 90 "healthy status with --port 9090" is_healthy "$CONTAINER"
  say "healthy with --port 9090 on a root-owned host folder"

  local owner
  owner=$(stat -c %u:%g "$data/mancala.db")
  [ "$owner" = 10001:10001 ] || fail "mancala.db belongs to $owner, not 10001:10001"
  local ids
  ids=$("$DOCKER" exec "$CONTAINER" awk '/^(Uid|Gid):/ { printf "%s ", $2 }' /proc/1/status)
  [ "$ids" = "10001 10001 " ] || fail "the server runs with uid and gid $ids, not 10001 10001"

  "$DOCKER" exec --user mancala "$CONTAINER" mancala-server --db /data/mancala.db --backup /data/backup.db
  "$DOCKER" cp "$CONTAINER:/data/backup.db" "$WORK/backup.db"
  head -c 15 "$WORK/backup.db" | grep -q "SQLite format 3" || fail "the backup is no SQLite file"
  say "backup taken and copied out with docker cp"

  "$DOCKER" stop "$CONTAINER" >/dev/null
  [ "$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$CONTAINER")" = 0 ] || fail "SIGTERM did not stop it cleanly"
  "$DOCKER" start "$CONTAINER" >/dev/null
  wait_for 90 "healthy status after a restart on the same folder" is_healthy "$CONTAINER"
  say "stopped cleanly and started again on its folder"
}

# docker/compose.yml through Debian's docker-compose 1.29, on a free host port.
check_compose() {
  "$DOCKER" tag "$IMAGE" mancala-online:latest
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  MANCALA_HTTP_PORT=$port docker-compose -p "$COMPOSE_PROJECT" -f docker/compose.yml up -d --no-build >/dev/null
  wait_for 60 "/healthz through docker-compose on port $port" curl --fail --silent "http://127.0.0.1:$port/healthz"
  docker-compose -p "$COMPOSE_PROJECT" -f docker/compose.yml exec -T --user mancala mancala \
    mancala-server --db /data/mancala.db --backup /data/backup-compose.db
  "$DOCKER" cp "$(docker-compose -p "$COMPOSE_PROJECT" -f docker/compose.yml ps -q mancala):/data/backup-compose.db" "$WORK/"
  docker-compose -p "$COMPOSE_PROJECT" -f docker/compose.yml down -v >/dev/null
  say "docker/compose.yml runs with $(docker-compose version --short), and its backup commands work"
}

ensure_daemon
ensure_bases
say "building $IMAGE (log: $WORK/build.log)"
"$DOCKER" build -t "$IMAGE" . >"$WORK/build.log" 2>&1 || { tail -n 30 "$WORK/build.log"; fail "docker build"; }
check_image
check_compose
say "passed"
