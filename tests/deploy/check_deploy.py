#!/usr/bin/env python3
"""Checks the container files without a Docker engine: the Dockerfile, docker/compose.yml and
docker/compose.cluster.yml parse, name files that exist, and agree with each other (the cluster's
nginx config with its compose file) and with the README's set-up steps. The cluster's nginx config
itself runs in tests/cluster/nginx_test.cpp."""
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
INSTRUCTIONS = {"FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
                "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def dockerfile_instructions(text):
    """Joins continuation lines and yields (instruction, arguments)."""
    logical, current = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        current += " " + stripped.rstrip("\\").strip() if current else stripped.rstrip("\\").strip()
        if not stripped.endswith("\\"):
            logical.append(current)
            current = ""
    check(not current, "Dockerfile ends inside a continued line")
    for line in logical:
        word, _, rest = line.partition(" ")
        yield word.upper(), rest.strip()


def check_push_key(name, service, flags, services):
    """Push is on in every server of the cluster, each signing with the same key: the one the
    push-key job makes once in the volume they share (any process may notify any player)."""
    key = flags.get("--vapid-key", "")
    check(key, f"{name} passes --vapid-key, so push is on")
    check(flags.get("--vapid-subject"), f"{name} passes --vapid-subject, which --vapid-key needs")
    maker = services.get("push-key", {})
    made = " ".join(str(word) for word in maker.get("entrypoint", []))
    check(str(maker.get("user")) == "10001:10001",
          "push-key writes the key as the servers' user (the image starts as root), so they can read it")
    check(f"--generate-vapid-key {key}" in made and f"test -s {key}" in made,
          f"push-key makes {key} once, keeping the key an earlier start made")
    key_folder = str(pathlib.PurePosixPath(key).parent)
    shared = [v.split(":")[0] for v in maker.get("volumes", []) if v.split(":")[1:2] == [key_folder]]
    check(shared and f"{shared[0]}:{key_folder}:ro" in service.get("volumes", []),
          f"{name} reads the key from push-key's volume, read-only")
    check((service.get("depends_on") or {}).get("push-key", {}).get("condition") == "service_completed_successfully",
          f"{name} starts once push-key has made the key")


def check_cluster():
    """docker/compose.cluster.yml and docker/nginx.cluster.conf: nginx in front of two or three
    server processes on one PostgreSQL, and nginx's upstreams are exactly those processes, none
    of them a backup."""
    compose = yaml.safe_load((ROOT / "docker/compose.cluster.yml").read_text())
    services = compose["services"]
    named_volumes = compose.get("volumes") or {}
    # The servers run the image's entrypoint (mancala-server); a one-shot job has its own.
    servers = {name: s for name, s in services.items()
               if s.get("image", "").startswith("mancala-online") and "entrypoint" not in s}
    nginx_networks = services.get("nginx", {}).get("networks") or {}
    nginx_address = (nginx_networks.get("default") or {}).get("ipv4_address")
    check(nginx_address, "nginx has a fixed address on the cluster's network")
    subnets = [c.get("subnet") for c in (compose.get("networks", {}).get("default", {}).get("ipam", {}).get("config") or [])]
    check(len(subnets) == 1, "the cluster's network has a subnet of its own")
    check(2 <= len(servers) <= 3, f"the cluster runs two or three server processes, not {len(servers)}")
    for name, service in servers.items():
        command = [str(word) for word in service.get("command", [])]
        flags = dict(zip(command[0::2], command[1::2]))
        check(flags.get("--db", "").startswith("postgresql://"), f"{name} uses the shared PostgreSQL database")
        check("--lease-ms" in flags, f"{name} sets --lease-ms")
        check(service.get("restart") in {"always", "unless-stopped"}, f"{name} has a restart policy")
        check("postgres" in (service.get("depends_on") or {}), f"{name} starts after postgres")
        check(not service.get("ports"), f"{name} is reached only through nginx (no published port)")
        check(flags.get("--trusted-proxy") == nginx_address,
              f"{name} trusts nginx's X-Forwarded-For ({nginx_address}), so limits count each client's address")
        context = (ROOT / "docker" / service["build"]["context"]).resolve()
        check((context / service["build"].get("dockerfile", "Dockerfile")).exists(),
              f"{name} builds from a Dockerfile that exists")
        check_push_key(name, service, flags, services)
    postgres = services.get("postgres", {})
    check(postgres.get("image", "").startswith("postgres:"), "the cluster runs PostgreSQL's official image")
    check("healthcheck" in postgres, "postgres has a health check the servers wait for")
    check(any(v.split(":")[0] in named_volumes for v in postgres.get("volumes", [])),
          "PostgreSQL keeps its data on a named volume")
    nginx = services.get("nginx", {})
    check(any(str(p).endswith(":8080") for p in nginx.get("ports", [])), "nginx publishes port 8080")
    mounts = [v for v in nginx.get("volumes", []) if v.endswith("/etc/nginx/conf.d/default.conf:ro")]
    check(len(mounts) == 1 and (ROOT / "docker" / mounts[0].split(":")[0]).exists(),
          "nginx mounts the config file from docker/ as conf.d/default.conf")
    check(nginx.get("restart") in {"always", "unless-stopped"}, "nginx has a restart policy")

    conf = (ROOT / "docker/nginx.cluster.conf").read_text()
    upstream = re.findall(r"^\s*server\s+([\w.-]+):(\d+)([^;]*);", conf, re.M)
    check(sorted(host for host, _, _ in upstream) == sorted(servers),
          f"nginx's upstreams {[h for h, _, _ in upstream]} are the compose servers {sorted(servers)}")
    check(all(port == "8080" for _, port, _ in upstream), "the upstreams use the servers' port 8080")
    # Any process serves any room (forwarding over the bus), so they share the load alike.
    standing_by = [host for host, _, rest in upstream if re.search(r"\b(backup|down)\b", rest)]
    check(not standing_by, f"nginx lists every server alike, but {standing_by} are backup or down")
    for needed in ("proxy_set_header Upgrade $http_upgrade", "proxy_set_header Connection $connection_upgrade",
                   "proxy_http_version 1.1", "proxy_read_timeout", "listen 8080;",
                   "proxy_next_upstream error timeout;"):
        check(needed in conf, f"docker/nginx.cluster.conf has '{needed}'")


def main():
    dockerfile = (ROOT / "Dockerfile").read_text()
    stages, copies_from_build, exposed = [], [], []
    entrypoint = None
    healthcheck = None
    for word, args in dockerfile_instructions(dockerfile):
        check(word in INSTRUCTIONS, f"Dockerfile: unknown instruction {word}")
        if word == "FROM":
            stages.append(args)
        elif word == "COPY":
            parts = args.split()
            if parts[0].startswith("--from="):
                copies_from_build.append(parts[1])
            else:
                for source in parts[:-1]:
                    if source != ".":
                        check((ROOT / source).exists(), f"Dockerfile copies {source}, which does not exist")
        elif word == "EXPOSE":
            exposed += args.split()
        elif word == "ENTRYPOINT":
            import json
            entrypoint = json.loads(args)
        elif word == "HEALTHCHECK":
            healthcheck = args
        elif word == "RUN" and "common.sh" in args:
            check("ensure_packages" in args or "build " in args, "RUN with common.sh uses its steps")
    check(stages and stages[0].startswith("debian:bookworm"), "the build stage is debian:bookworm")
    check(len(stages) >= 2 and stages[-1].startswith("debian:bookworm"), "the runtime stage is Debian bookworm")
    check("ensure_packages" in dockerfile and "build mancala mancala-server" in dockerfile,
          "the image builds with the same steps as ./run.sh (scripts/common.sh)")
    check("8080" in exposed, "the image exposes 8080")
    check(healthcheck and "healthcheck.sh" in healthcheck, "HEALTHCHECK runs docker/healthcheck.sh")
    check("mancala-server --health" in (ROOT / "docker/healthcheck.sh").read_text(),
          "the health check asks the server with mancala-server --health")
    check(re.search(r"groupadd --system --gid 10001 mancala", dockerfile) and
          re.search(r"useradd --system --uid 10001 --gid 10001", dockerfile),
          "the image's user and its group are both 10001")
    check(entrypoint == ["/usr/local/lib/mancala/entrypoint.sh"], "the entrypoint is docker/entrypoint.sh")
    start = (ROOT / "docker/entrypoint.sh").read_text()
    defaults = re.search(r"^set -- (.*) \"\$@\"$", start, re.M)
    words = defaults.group(1).split() if defaults else []
    flags = dict(zip(words[0::2], words[1::2]))
    check(flags.get("--bind") == "0.0.0.0", "the server binds 0.0.0.0 in the container")
    check(flags.get("--db") == "/data/mancala.db", "the database lives on the /data volume")
    check("printf '%s\\0' \"$@\" > /tmp/mancala-server.flags" in start and
          "/tmp/mancala-server.flags" in (ROOT / "docker/healthcheck.sh").read_text(),
          "the health check reads the flags the entrypoint started the server with")
    check("exec setpriv --reuid=10001 --regid=10001 --clear-groups -- mancala-server" in start,
          "the server runs as uid and gid 10001, never as root")
    for artifact in copies_from_build:
        if artifact.startswith("/src/build/"):
            target = pathlib.PurePath(artifact).name
            declared = any(f"add_executable({target}" in p.read_text()
                           for p in ROOT.glob("*/CMakeLists.txt"))
            check(declared, f"Dockerfile copies {artifact}, but no CMakeLists.txt builds {target}")
        else:
            check((ROOT / artifact.removeprefix("/src/")).exists(), f"{artifact} does not exist")
    common = (ROOT / "scripts/common.sh").read_text()
    check("BUILD_PACKAGES=" in common, "scripts/common.sh lists the build packages")

    compose = yaml.safe_load((ROOT / "docker/compose.yml").read_text())
    service = compose["services"]["mancala"]
    context = (ROOT / "docker" / service["build"]["context"]).resolve()
    check((context / service["build"].get("dockerfile", "Dockerfile")).exists(),
          "compose builds from a Dockerfile that exists")
    check(service.get("restart") in {"always", "unless-stopped", "on-failure"}, "compose sets a restart policy")
    check(any(str(p).endswith(":8080") for p in service.get("ports", [])), "compose publishes port 8080")
    volumes = service.get("volumes", [])
    named = [v.split(":")[0] for v in volumes if ":/data" in v]
    check(named and named[0] in (compose.get("volumes") or {}), "compose keeps /data on a named volume")

    check_cluster()

    readme = (ROOT / "README.md").read_text()
    check("## Deploy" in readme, "README.md has a Deploy section")
    check((ROOT / "docker/README.md").exists(), "docker/README.md exists")

    for failure in failures:
        print("FAIL:", failure)
    print("deploy files: ok" if not failures else f"{len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
