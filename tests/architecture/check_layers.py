#!/usr/bin/env python3
"""The server's layers, checked from its sources.

server/CMakeLists.txt declares each layer once, lowest first: `mancala_server_layer(NAME USES
...)`, where USES names the layers (and outside libraries) it may use. This check reads those
lines, then every #include "..." under server/src/<layer>/, and fails when a file includes a
header of a layer its own does not use (directly or through the layers it uses), a header that
exists in no layer, or when files include each other in a circle. The build enforces the first
rule too (a layer sees only the headers of the layers it uses); this check says it in words and
also catches circles inside one layer. It also fails when the layer lists of the READMEs a
newcomer reads first (LAYER_LISTS: numbered lines "1. [`base/`](...)") do not name the declared
layers in their order, bottom to top.

usage: check_layers.py REPO_ROOT
"""
import re
import sys
from pathlib import Path

LAYER_LINE = re.compile(r"^mancala_server_layer\((\w+)(?:\s+USES\s+([^)]*))?\)", re.M)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LISTED_LAYER = re.compile(r"^\d+\. \[`(\w+)/`\]", re.M)
LAYER_LISTS = ["server/src/README.md", "server/README.md"]


def declared_layers(cmake_text):
    layers = {}
    for name, uses in LAYER_LINE.findall(cmake_text):
        below = [u.removeprefix("mancala_server_") for u in uses.split() if u.startswith("mancala_server_")]
        unknown = [u for u in below if u not in layers]
        if unknown:
            raise SystemExit(f"layer {name} uses {unknown}, which are not declared before it")
        layers[name] = below
    if not layers:
        raise SystemExit("no mancala_server_layer(...) lines in server/CMakeLists.txt")
    return layers


def reachable(layers):
    """Each layer with every layer it may use, itself included."""
    out = {}
    for name, below in layers.items():  # declared lowest first
        out[name] = {name}.union(*(out[b] for b in below))
    return out


def find_cycle(graph):
    state = {}  # node -> 1 while on the path, 2 when done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def main():
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
    src = root / "server" / "src"
    layers = declared_layers((root / "server" / "CMakeLists.txt").read_text())
    allowed = reachable(layers)

    layer_of = {}  # header name -> layer
    for layer in layers:
        folder = src / layer
        if not folder.is_dir():
            raise SystemExit(f"layer {layer} has no folder server/src/{layer}")
        for header in folder.glob("*.hpp"):
            if header.name in layer_of:
                raise SystemExit(f"{header.name} is in two layers: {layer_of[header.name]} and {layer}")
            layer_of[header.name] = layer
    stray = [p.relative_to(src) for p in src.iterdir() if p.is_file() and p.suffix != ".md"]
    stray += [p.relative_to(src) for p in src.iterdir() if p.is_dir() and p.name not in layers]
    errors = [f"server/src/{p} is in no layer" for p in stray]

    graph = {}
    files = 0
    for layer in layers:
        for path in sorted((src / layer).glob("*.[ch]pp")):
            files += 1
            name = f"{layer}/{path.name}"
            graph.setdefault(name, set())
            for included in INCLUDE.findall(path.read_text()):
                if included.startswith("mancala/"):
                    continue  # the engine's and the protocol's headers: below every layer
                target = layer_of.get(included)
                if target is None:
                    errors.append(f"{name} includes \"{included}\", which is in no layer")
                elif target not in allowed[layer]:
                    errors.append(f"{name} includes {target}/{included}: layer {layer} may use only "
                                  f"{', '.join(sorted(allowed[layer]))}")
                else:
                    graph[name].add(f"{target}/{included}")
    for readme in LAYER_LISTS:
        path = root / readme
        listed = LISTED_LAYER.findall(path.read_text()) if path.exists() else []
        if listed != list(layers):
            errors.append(f"{readme} lists the layers as {', '.join(listed) or 'nothing'}; "
                          f"server/CMakeLists.txt declares {', '.join(layers)} (bottom to top)")

    # a .cpp and its header are one unit: "x.cpp -> x.hpp" closes no circle on its own
    cycle = find_cycle(graph)
    if cycle:
        errors.append("files include each other in a circle: " + " -> ".join(cycle))

    for error in errors:
        print(error)
    order = " < ".join(layers)
    print(f"{files} files in {len(layers)} layers ({order}): "
          f"{'no include runs upward or in a circle' if not errors else f'{len(errors)} problems'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
