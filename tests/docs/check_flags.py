#!/usr/bin/env python3
"""The flag table of server/README.md lists exactly the flags `mancala-server --help` prints.

Flags are declared once (server/src/app/config.cpp), and --help is generated from them; this
keeps the operator's table beside them. Usage: check_flags.py <mancala-server> <README.md>.
"""
import re
import subprocess
import sys


def flags_in_help(server):
    shown = subprocess.run([server, "--help"], check=True, capture_output=True, text=True)
    return {m.group(1) for m in re.finditer(r"^  (--[a-z0-9-]+)", shown.stdout, re.MULTILINE)}


def flags_in_table(readme):
    """Every flag named in the first column of a table row: | `--port N` | … or | `--silence WHO --for D` |."""
    found = set()
    for line in open(readme, encoding="utf-8"):
        if not line.startswith("| `--"):
            continue
        first_cell = line.split("|")[1]
        found.update(re.findall(r"(--[a-z0-9-]+)", first_cell))
    return found


def main():
    server, readme = sys.argv[1], sys.argv[2]
    declared, documented = flags_in_help(server), flags_in_table(readme)
    if not declared:
        sys.exit(f"{server} --help printed no flags")
    problems = [f"{flag}: in --help, missing from the table in {readme}" for flag in sorted(declared - documented)]
    problems += [f"{flag}: in the table of {readme}, but the server has no such flag" for flag in sorted(documented - declared)]
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"the {len(declared)} flags of --help and the README's table agree")


if __name__ == "__main__":
    main()
