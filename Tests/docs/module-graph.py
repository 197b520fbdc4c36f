#!/usr/bin/env python3
"""The module graph drawn in docs/architecture.md is Package.swift's, every
module a target imports is one it declares, the files its press path
lists exist (at most 15), and the module table's line counts are the
tree's (Swift lines that are neither blank nor comments) within 5 %.

Usage: module-graph.py [PACKAGE_DIR] [--write]. --write puts the tree's
line counts in the table instead of failing on stale ones. Reads the targets' dependencies from
`swift package dump-package` (modules of this package only: products of
other packages are left out) and the block after `<!-- module-graph -->` in
docs/architecture.md (`Module -> Dep, Dep`), and prints one line per
difference. Exits 1 on any."""
import json
import os
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if a != "--write"]
write = "--write" in sys.argv[1:]
root = args[0] if args else "."
dump = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                 capture_output=True, text=True).stdout)
package = {}
for t in dump["targets"]:
    if t["type"] == "test" or t.get("path", "").startswith("Tests/") or t["name"].startswith("C"):
        continue  # tests, their support, and the C shims (drawn with the module that wraps them)
    deps = set()
    for d in t["dependencies"]:
        kind = next(iter(d))
        if kind in ("byName", "target"):
            deps.add(d[kind][0])
    package[t["name"]] = deps

page = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
block = re.search(r"<!-- module-graph -->\n```text\n(.*?)```", page, re.S)
if not block:
    sys.exit("docs/architecture.md: no ```text block after <!-- module-graph -->")
drawn = {}
for line in block.group(1).splitlines():
    name, _, deps = line.partition("->")
    drawn[name.strip()] = {d.strip() for d in deps.split(",") if d.strip()}

problems = []
for name in sorted(set(package) | set(drawn)):
    if name not in drawn:
        problems.append(f"{name} is a target in Package.swift but not drawn")
    elif name not in package:
        problems.append(f"{name} is drawn but is not a target in Package.swift")
    elif package[name] != drawn[name]:
        missing, extra = package[name] - drawn[name], drawn[name] - package[name]
        problems.append(f"{name}: the page {'lacks ' + ', '.join(sorted(missing)) if missing else ''}"
                        f"{'; ' if missing and extra else ''}{'has extra ' + ', '.join(sorted(extra)) if extra else ''}")
# The press's path: every file the table names exists, and there are at most 12.
press = page.split("## One press, file by file", 1)[-1].split("\n## ", 1)[0]
files = re.findall(r"^\| \d+ \| `(Sources/[^`]+)`", press, re.M)
for f in files:
    if not os.path.isfile(os.path.join(root, f)):
        problems.append(f"the press's path names {f}, which does not exist")
if not 0 < len(files) <= 15:
    problems.append(f"the press's path lists {len(files)} files (at most 15)")


# The table's line counts: each module's Swift lines that are neither blank
# nor comments, counted from the tree.
def code_lines(module):
    n = 0
    for dirpath, _, names in os.walk(os.path.join(root, "Sources", module)):
        for f in names:
            if f.endswith(".swift"):
                for line in open(os.path.join(dirpath, f), encoding="utf-8"):
                    t = line.strip()
                    if t and not t.startswith("//"):
                        n += 1
    return n


def counted(row):
    cells = row.split(" | ")
    modules = [re.sub(r"\s*\(\+.*?\)", "", m).strip() for m in cells[0].lstrip("| ").split(",")]
    return cells, modules


rows = re.findall(r"^\| (?:Tock|tock)[^\n]*\|$", page, re.M)
stale = []
new_page = page
for row in rows:
    cells, modules = counted(row)
    if not all(os.path.isdir(os.path.join(root, "Sources", m)) for m in modules):
        continue
    counts = [code_lines(m) for m in modules]
    want = ", ".join(f"{n:,}" for n in counts)
    have = cells[-1].rstrip(" |")
    said = [int(x.replace(",", "")) for x in re.findall(r"[\d,]+", have)]
    # Off by more than 5 % is stale (a few lines more or less is not news).
    off = len(said) != len(counts) or any(abs(a - b) > 0.05 * b for a, b in zip(said, counts))
    if have != want and (off or write):
        stale.append(f"{', '.join(modules)}: the table says {have}, the tree has {want}")
        new_page = new_page.replace(row, " | ".join(cells[:-1]) + f" | {want} |")
if stale and write:
    open(os.path.join(root, "docs", "architecture.md"), "w", encoding="utf-8").write(new_page)
    print(f"wrote {len(stale)} line counts in docs/architecture.md")
    stale = []
problems += [f"line counts: {s} (python3 Tests/docs/module-graph.py --write)" for s in stale]
# Every module of this package a target imports is one it declares (the
# compiler accepts a module reached through another; the graph would lie).
for t in dump["targets"]:
    name, declared = t["name"], package.get(t["name"])
    if declared is None:
        continue
    src = os.path.join(root, t.get("path") or os.path.join("Sources", name))
    for dirpath, _, names in os.walk(src):
        for n in names:
            if not n.endswith(".swift"):
                continue
            text = open(os.path.join(dirpath, n), encoding="utf-8").read()
            for imported in re.findall(r"^\s*(?:@testable\s+)?import\s+(\w+)", text, re.M):
                if imported in package and imported != name and imported not in declared:
                    problems.append(f"{os.path.relpath(os.path.join(dirpath, n), root)} imports {imported}, which {name} does not declare")
# The page (TockWeb), a client of the socket on the LAN, reaches none of
# the box's hardware or broker code: neither shim is in its closure (the
# one program holds both; run as tock-web it only runs the page's).
every = {t["name"]: {d[next(iter(d))][0] for d in t["dependencies"] if next(iter(d)) in ("byName", "target")}
         for t in dump["targets"]}
if "TockWeb" not in every:
    problems.append("TockWeb is not a target in Package.swift")
closure, todo = set(), ["TockWeb"]
while todo:
    for d in every.get(todo.pop(), ()):
        if d not in closure:
            closure.add(d)
            todo.append(d)
for shim in ("CGpiod", "CMosquitto"):
    if shim in closure:
        problems.append(f"TockWeb reaches {shim} through its dependencies")
for p in problems:
    print(f"FAIL module graph: {p}")
if problems:
    sys.exit(1)
print(f"ok   module graph: docs/architecture.md draws Package.swift's {len(package)} modules and their dependencies")
print(f"ok   the press's path in docs/architecture.md: {len(files)} files, each one in the tree")
print("ok   every module a target imports is one it declares")
print("ok   the page (TockWeb) reaches neither libgpiod (CGpiod) nor libmosquitto (CMosquitto)")
print(f"ok   the module table's line counts are the tree's, within 5 % ({len(rows)} rows)")
