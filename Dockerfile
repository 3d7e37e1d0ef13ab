# mancala-server in a container. The build stage runs the same set-up steps as ./run.sh and
# ./test.sh (scripts/common.sh), so CI exercises them on every run.
FROM debian:bookworm AS build
WORKDIR /src
COPY scripts/common.sh scripts/common.sh
RUN bash -c 'source scripts/common.sh && ensure_packages "${BUILD_PACKAGES[@]}"' \
    && rm -rf /var/lib/apt/lists/*
COPY . .
RUN bash -c 'source scripts/common.sh && build mancala mancala-server'

# Runtime: only the shared libraries the two executables use (libssl3 and the CA certificates for
# Web Push over TLS), the executables and the web client. The user and its group are both 10001,
# so files on a host folder have an owner and group the host can name in one chown.
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 libpq5 libsodium23 libssl3 libjemalloc2 libicu72 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 mancala \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin mancala \
    && mkdir -p /data && chown mancala:mancala /data
COPY --from=build /src/build/server/mancala-server /usr/local/bin/mancala-server
COPY --from=build /src/build/cli/mancala /usr/local/bin/mancala
COPY --from=build /src/web-client /usr/share/mancala/web-client
COPY docker/entrypoint.sh /usr/local/lib/mancala/entrypoint.sh
COPY docker/healthcheck.sh /usr/local/lib/mancala/healthcheck.sh
# The entrypoint starts as root only to hand a host folder at /data to uid 10001, then runs the
# server as that user (docker/entrypoint.sh); `docker exec --user mancala` for commands.
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/lib/mancala/healthcheck.sh"]
ENTRYPOINT ["/usr/local/lib/mancala/entrypoint.sh"]
CMD []
