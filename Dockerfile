# Multi-stage image for mancala-server (completed with issue 9).
FROM debian:bookworm AS build
WORKDIR /src
COPY . .
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      g++ cmake ninja-build pkg-config libboost-dev nlohmann-json3-dev libsqlite3-dev libgtest-dev \
    && rm -rf /var/lib/apt/lists/*
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build -j 2

FROM debian:bookworm-slim
COPY --from=build /src/build/cli/mancala /usr/local/bin/mancala
CMD ["mancala", "games"]
