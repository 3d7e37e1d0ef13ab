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
# Web Push over TLS), the executables and the web client.
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 libpq5 libsodium23 libssl3 libjemalloc2 libicu72 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin mancala \
    && mkdir -p /data && chown mancala:mancala /data
COPY --from=build /src/build/server/mancala-server /usr/local/bin/mancala-server
COPY --from=build /src/build/cli/mancala /usr/local/bin/mancala
COPY --from=build /src/web-client /usr/share/mancala/web-client
USER mancala
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD curl --fail --silent --max-time 2 http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["mancala-server", "--bind", "0.0.0.0", "--port", "8080", "--db", "/data/mancala.db", \
            "--static", "/usr/share/mancala/web-client"]
CMD []
