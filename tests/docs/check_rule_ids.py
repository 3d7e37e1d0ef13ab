#!/usr/bin/env python3
"""Every rule ID cited in the code must resolve in docs/rules/.

Comments and tests in engine/, tests/, cli/, server/ and web-client/ cite the rule books by ID
(`C-4`, `NJ-7`, `QD-CHAIN`, `CD3-2`, `L1-L3`, `clarification 12` ...). A clone of the repository
has only docs/rules/, so each cited ID must be defined there: written in bold at the start of the
bold span that states the rule (`**C-4**`, `**C-4.**`, `**CD3-2 — a chain**`,
`**Clarification 12**`). A rule ID defined twice is an error too (clarifications may be labelled
on several pages, one part per game).

The translated books (docs/rules/vi/, docs/rules/de/: issue 49) keep the English book's
structure: each page defines the same rule IDs and clarifications in the same order as its English
page, so an ID cited anywhere means the same rule in every language.

Usage: check_rule_ids.py [REPO_ROOT]. Exit status 0 when every cited ID is defined, 1 otherwise.
A source line containing `rule-ids: ignore` is skipped (for text that only looks like an ID).
"""
import collections
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]
SOURCE_DIRS = ["engine", "tests", "cli", "server", "web-client"]
SKIP_DIRS = {"node_modules", "__pycache__", "test-artifacts"}
EXTENSIONS = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".js", ".mjs", ".cjs", ".ts",
              ".py", ".html", ".css", ".md", ".txt", ".cmake", ".sh", ".json", ".sql"}
DOCS = ROOT / "docs" / "rules"

# The ID shapes of the rule books, longest prefixes first so that `CD3-2` is not read as `D3-2`.
NUMBERED = ["CUPS", "CD1", "CD2", "CD3", "D12", "D2", "D3", "OAQ", "NJK", "DUO", "OQ", "NJ", "DV",
            "C", "D"]
DECISIONS = ["QD", "ND", "VD", "D"]           # D-TIE, QD-CHAIN, ND-PLEX, VD-LAYOUT ...
PLAIN = ["G", "L", "X", "C"]                   # G5, L3, X1, C6 (no hyphen)

NUM = r"(?:%s)-\d+" % "|".join(NUMBERED)
WORD = r"(?:%s)-[A-Z][A-Z0-9]+" % "|".join(DECISIONS)
SPECIAL = r"D3-(?:R1|[SWEN])"
PLAIN_ID = r"(?:%s)\d+" % "|".join(PLAIN)
ONE_ID = r"(?:%s|%s|%s|%s)" % (SPECIAL, NUM, WORD, PLAIN_ID)
ID_RE = re.compile(r"(?<![\w-])(%s)(?![\w])" % ONE_ID)
# `L1-L3`, `C-4..C-8`, `NJ-2–NJ-5`: both ends written out, same family.
RANGE_RE = re.compile(r"(?<![\w-])(%s)\s*(?:\.\.|-|–|—)\s*(%s)(?![\w])" % (ONE_ID, ONE_ID))
# `clarification 12`, `clarifications 10-13`, `Clarifications 2, 8 and 11`.
CLAR_RE = re.compile(r"\b[Cc]larifications?\s+(\d+(?:\s*(?:,|and|or|-|–|to)\s*\d+)*)")
# A definition in the docs: a bold span that starts with the ID.
DEF_RE = re.compile(r"\*\*(%s)(?![\w])" % ONE_ID)
# The translated books say "Klarstellung 12" and "Làm rõ 12" for the same label.
CLAR_DEF_RE = re.compile(r"\*\*(?:Clarification|Klarstellung|Làm rõ) (\d+)(?!\d)")


def split_family(rule_id):
    """'C-4' -> ('C-', 4); 'L3' -> ('L', 3); 'D-TIE' -> None."""
    match = re.fullmatch(r"(.*?)(\d+)", rule_id)
    if not match or not match.group(1) or match.group(1)[-1] not in "-GLXC":
        return None
    if "-" in rule_id and not rule_id[rule_id.rindex("-") + 1:].isdigit():
        return None
    return match.group(1), int(match.group(2))


def expand_numbers(text):
    """'10-13' -> 10..13; '2, 8 and 11' -> 2, 8, 11."""
    numbers, previous, pending_range = [], None, False
    for token in re.findall(r"\d+|-|–|to", text):
        if token in ("-", "–", "to"):
            pending_range = True
            continue
        value = int(token)
        if pending_range and previous is not None and previous < value <= previous + 50:
            numbers.extend(range(previous + 1, value + 1))
        else:
            numbers.append(value)
        previous, pending_range = value, False
    return numbers


def cited_ids():
    """{id: [(path, line_number), ...]} for every rule ID and clarification cited in the sources."""
    cited = collections.defaultdict(list)
    for top in SOURCE_DIRS:
        base = ROOT / top
        if not base.is_dir():
            continue
        for folder, dirs, files in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith((".", "build")))
            for name in sorted(files):
                path = pathlib.Path(folder) / name
                if path.suffix not in EXTENSIONS and name != "CMakeLists.txt":
                    continue
                if path.resolve() == pathlib.Path(__file__).resolve():
                    continue
                try:
                    text = path.read_text(encoding="utf-8")
                except (UnicodeDecodeError, OSError):
                    continue
                rel = path.relative_to(ROOT).as_posix()
                for number, line in enumerate(text.splitlines(), 1):
                    if "rule-ids: ignore" in line:
                        continue
                    for rule_id in ID_RE.findall(line):
                        cited[rule_id].append((rel, number))
                    for first, last in RANGE_RE.findall(line):
                        a, b = split_family(first), split_family(last)
                        if a and b and a[0] == b[0] and a[1] < b[1] <= a[1] + 20:
                            for n in range(a[1], b[1] + 1):
                                cited["%s%d" % (a[0], n)].append((rel, number))
                    for group in CLAR_RE.findall(line):
                        for n in expand_numbers(group):
                            cited["Clarification %d" % n].append((rel, number))
    return cited


def defined_ids():
    """({id: [page, ...]}, {clarification label: [page, ...]}) from docs/rules/*.md."""
    rules, clarifications = collections.defaultdict(list), collections.defaultdict(list)
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for rule_id in DEF_RE.findall(text):
            rules[rule_id].append(page.name)
        for n in CLAR_DEF_RE.findall(text):
            clarifications["Clarification %s" % n].append(page.name)
    return rules, clarifications


def definitions_in_order(page):
    """The rule IDs and clarification labels a page defines, in the order it defines them."""
    text = page.read_text(encoding="utf-8")
    found = [(m.start(), m.group(1)) for m in DEF_RE.finditer(text)]
    found += [(m.start(), "Clarification %s" % m.group(1)) for m in CLAR_DEF_RE.finditer(text)]
    return [label for _, label in sorted(found)]


def translation_problems():
    """One line per translated page that is missing, extra or defines other IDs than its original."""
    problems = []
    for folder in sorted(d for d in DOCS.iterdir() if d.is_dir()):
        for original in sorted(DOCS.glob("*.md")):
            translated = folder / original.name
            if not translated.exists():
                problems.append("%s/%s is missing" % (folder.name, original.name))
                continue
            want, got = definitions_in_order(original), definitions_in_order(translated)
            if want != got:
                first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
                problems.append("%s/%s defines %d IDs, %s has %d; first difference at #%d: %s instead of %s" % (
                    folder.name, original.name, len(got), original.name, len(want), first + 1,
                    got[first] if first < len(got) else "nothing", want[first] if first < len(want) else "nothing"))
        for extra in sorted(folder.glob("*.md")):
            if not (DOCS / extra.name).exists():
                problems.append("%s/%s has no English original" % (folder.name, extra.name))
    return problems


def main():
    if not DOCS.is_dir():
        print("rule_ids: %s does not exist" % DOCS.relative_to(ROOT))
        return 1
    cited = cited_ids()
    rules, clarifications = defined_ids()
    missing = sorted((k for k in cited if k not in rules and k not in clarifications),
                     key=lambda k: (re.sub(r"\d+$", "", k), [int(x) for x in re.findall(r"\d+", k)]))
    twice = sorted(k for k, pages in rules.items() if len(pages) > 1)
    failed = False
    if missing:
        failed = True
        print("rule_ids: %d cited rule ID(s) are not defined in docs/rules/*.md "
              "(write them as a bold label, e.g. **C-4**):" % len(missing))
        for rule_id in missing:
            places = list(dict.fromkeys(cited[rule_id]))
            shown = ", ".join("%s:%d" % place for place in places[:3])
            more = " and %d more" % (len(places) - 3) if len(places) > 3 else ""
            print("  %-16s cited at %s%s" % (rule_id, shown, more))
    if twice:
        failed = True
        print("rule_ids: rule ID(s) defined more than once in docs/rules/*.md:")
        for rule_id in twice:
            print("  %-16s on %s" % (rule_id, ", ".join(rules[rule_id])))
    translations = translation_problems()
    if translations:
        failed = True
        print("rule_ids: the translated rule books differ from the English ones:")
        for problem in translations:
            print("  " + problem)
    if failed:
        return 1
    languages = sorted(d.name for d in DOCS.iterdir() if d.is_dir())
    if languages:
        print("rule_ids: the books in %s define the same IDs as the English ones" % ", ".join(languages))
    print("rule_ids: all %d cited rule IDs resolve (%d citations); docs/rules/ defines %d IDs "
          "and %d clarifications" % (len(cited), sum(len(v) for v in cited.values()), len(rules),
                                     len(clarifications)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
