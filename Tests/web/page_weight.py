"""The page's files, raw and gzipped (zlib, best compression, as tock-web
gzips them at start-up), read from Sources/TockWeb at git revisions:

    python3 Tests/web/page_weight.py [REV ...]     (default: HEAD~1 and the work tree)

A file is the Swift raw string literal of that name in Page*.swift, with
the literals it interpolates (\\#(timersJS)) put in and the one computed
interpolation (the mode options) written out. `page_weight.py --served
URL` prints what a running tock-web sends, to check the reading."""
import re
import subprocess
import sys
import urllib.request
import zlib

FILES = {"index.html": "html", "app.js": "js", "app.css": "css", "icon.svg": "icon", "manifest.webmanifest": "manifest"}
MODES = "".join(f"<option>{m}</option>" for m in ["timer", "stopwatch", "countdown", "interval"])


def sources(rev):
    if rev == "work":
        out = subprocess.run(["git", "ls-files", "Sources/TockWeb"], capture_output=True, text=True, check=True).stdout.split()
        return [open(p).read() for p in out if re.search(r"/Page.*\.swift$", p)]
    out = subprocess.run(["git", "ls-tree", "--name-only", rev, "Sources/TockWeb/"], capture_output=True, text=True, check=True).stdout.split()
    return [subprocess.run(["git", "show", f"{rev}:{p}"], capture_output=True, text=True, check=True).stdout
            for p in out if re.search(r"/Page.*\.swift$", p)]


def literals(texts):
    found = {}
    for text in texts:
        for m in re.finditer(r'static let (\w+) = #"""\n(.*?)\n( *)"""#', text, re.S):
            indent = len(m.group(3))
            found[m.group(1)] = "\n".join(line[indent:] for line in m.group(2).split("\n"))
    return found


def expand(value, found):
    def sub(m):
        inner = m.group(1)
        if inner in found:
            return expand(found[inner], found)
        if inner.startswith("ControlRequest.modes"):
            return MODES
        raise ValueError(f"cannot expand \\#({inner})")
    return re.sub(r"\\#\(((?:[^()]|\([^()]*\))*)\)", sub, value)


def gzipped(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return len(c.compress(data) + c.flush())


def weigh(rev):
    found = literals(sources(rev))
    return {f: (len(b), gzipped(b)) for f, name in FILES.items() for b in [expand(found[name], found).encode()]}


def served(url):
    out = {}
    for f in FILES:
        raw = urllib.request.urlopen(f"{url}/{f}").read()
        req = urllib.request.Request(f"{url}/{f}", headers={"Accept-Encoding": "gzip"})
        out[f] = (len(raw), len(urllib.request.urlopen(req).read()))
    return out


def main():
    if sys.argv[1:2] == ["--served"]:
        table = {"served": served(sys.argv[2])}
    else:
        table = {rev: weigh(rev) for rev in (sys.argv[1:] or ["HEAD~1", "work"])}
    print("| file | " + " | ".join(f"{r} raw / gzipped" for r in table) + " |")
    print("|---|" + "---|" * len(table))
    for f in list(FILES) + ["total"]:
        cells = []
        for sizes in table.values():
            raw, gz = (sum(v[0] for v in sizes.values()), sum(v[1] for v in sizes.values())) if f == "total" else sizes[f]
            cells.append(f"{raw:,} / {gz:,}")
        print(f"| {f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
