#!/bin/sh
# The image's entrypoint: mancala-server with the image's defaults, then any flags given after the
# image name (a later flag wins, so `--port 9090` or `--db postgresql://…` replace a default).
set -eu

set -- --bind 0.0.0.0 --port 8080 --db /data/mancala.db --static /usr/share/mancala/web-client "$@"

# The health check asks the server these same flags start (docker/healthcheck.sh), so any
# --port or --bind keeps the container healthy.
printf '%s\0' "$@" > /tmp/mancala-server.flags

run_as=10001:10001
if [ "$(id -u)" = 0 ]; then
  # Docker creates a missing host folder owned by root. Hand /data (and whatever an earlier
  # start or another user left in it) to the server's user, then drop root for good. A
  # read-only /data (the cluster's key volume) is left as it is.
  if [ -w /data ] && [ -n "$(find /data \! -user 10001 -print -quit)" ]; then
    find /data \! -user 10001 -exec chown "$run_as" {} +
  fi
  exec setpriv --reuid=10001 --regid=10001 --clear-groups -- mancala-server "$@"
fi

# Started as another user (docker run --user …): it may not change owners, so say what it needs.
if [ ! -w /data ]; then
  echo "mancala: /data is not writable by uid $(id -u): on the host, give the folder mounted there to that user (sudo chown $(id -u):$(id -g) FOLDER), or start the container without --user to have it done" >&2
fi
exec mancala-server "$@"
