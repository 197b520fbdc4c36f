"""Reading callgrind's output files: the one parser Benchmarks/ shares.

    totals(path)                  the run's total instructions (Ir)
    total(paths)                  the largest total of several dumps
    calls_to(path, names)         calls recorded to functions of those
                                  names (the C allocator, for example)
    calls_matching(paths, regex)  calls to the functions whose names match,
                                  and their inclusive cost
    per_address(path)             {instruction address: Ir}, from a dump made
                                  with --dump-instr=yes
    per_function(path)            {(object, function): Ir}, self cost

Costs on `calls=` lines' following line are inclusive costs of the call and
belong to the callee, so they are skipped here: every figure is self cost.
From a shell: `python3 Benchmarks/callgrind.py totals FILE...` prints the
largest total of the files.
Addresses are as the program ran (a PIE is loaded at valgrind's base);
`load_bias` finds that base from the binary's own symbol table.
"""
import collections
import re
import subprocess

_NAME = re.compile(r"^(fl|fi|fe|fn|ob|cob|cfi|cfl|cfn)=(?:\((\d+)\))?\s*(.*)$")


def totals(path):
    """The `summary:` or `totals:` line of a dump (Ir)."""
    best = 0
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                best = max(best, int(line.split()[1]))
    return best


def total(paths):
    """The largest total of several dumps (a run dumped more than once
    leaves each dump's own totals)."""
    return max((totals(p) for p in paths), default=0)


ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"}


def calls_to(path, names=ALLOCATORS):
    """Calls recorded in one dump to functions of these names."""
    ids = {}
    calls = 0
    callee = None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(3):
                    ids[m.group(2)] = m.group(3).strip()
                callee = ids.get(m.group(2)) if m.group(1) == "cfn" else None
                continue
            if line.startswith("calls=") and callee is not None:
                if callee in names:
                    calls += int(line.split("=")[1].split()[0])
                callee = None
    return calls


def calls_matching(paths, pattern):
    """(calls, inclusive Ir) of the calls recorded in the dumps to every
    function whose name matches `pattern` (a regular expression)."""
    wanted = re.compile(pattern)
    n = cost = 0
    for path in paths:
        ids = {}
        positions = 1
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("positions:"):
                positions = len(line.split()) - 1
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
            if m and m.group(2):
                ids[m.group(1)] = m.group(2)
            if line.startswith("cfn=") and i + 2 < len(lines) and lines[i + 1].startswith("calls="):
                fid = re.match(r"cfn=\((\d+)\)", line).group(1)
                if wanted.search(ids.get(fid, "")):
                    n += int(lines[i + 1].split()[0][6:])
                    cost += int(lines[i + 2].split()[positions])
    return n, cost


def _records(path):
    """Yield (object, function, address or None, Ir) for every self-cost line."""
    names = {}
    obj = fn = None
    skip_next = False
    last_addr = 0
    positions = ["line"]
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line:
                continue
            if line.startswith("positions:"):
                positions = line.split()[1:]
                continue
            m = _NAME.match(line)
            if m:
                kind, ident, name = m.groups()
                key = (kind.lstrip("c").replace("fi", "fl").replace("fe", "fl"), ident)
                if ident is not None and name:
                    names[key] = name
                value = names.get(key, name) if ident is not None else name
                if kind == "ob":
                    obj = value
                elif kind == "fn":
                    fn = value
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            c = line[0]
            if not (c.isdigit() or c in "+-*"):
                continue
            parts = line.split()
            addr = None
            if "instr" in positions:
                tok = parts[0]
                if tok.startswith("0x"):
                    last_addr = int(tok, 16)
                elif tok.startswith("+"):
                    last_addr += int(tok[1:], 0)
                elif tok.startswith("-"):
                    last_addr -= int(tok[1:], 0)
                elif tok != "*":
                    last_addr = int(tok, 0)
                addr = last_addr
            ir = int(parts[len(positions)]) if len(parts) > len(positions) else 0
            if skip_next:
                skip_next = False
                continue
            yield obj, fn, addr, ir


def per_address(path):
    costs = collections.Counter()
    for obj, _, addr, ir in _records(path):
        if addr is not None:
            costs[(obj, addr)] += ir
    return costs


def per_function(path):
    costs = collections.Counter()
    for obj, fn, _, ir in _records(path):
        costs[(obj, fn)] += ir
    return costs


def load_bias(binary, path):
    """Where the binary was loaded in the run of `path`: the most common
    difference between a function's lowest address there and its address
    in the binary's symbol table."""
    table = {}
    out = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT":
            table[parts[2]] = int(parts[0], 16)
    lowest = {}
    for _, fn, addr, _ in _records(path):
        if addr is not None and fn in table:
            lowest[fn] = min(addr, lowest.get(fn, addr))
    votes = collections.Counter(lowest[f] - table[f] for f in lowest)
    if not votes:
        raise RuntimeError(f"no function of {binary} found in {path}")
    return votes.most_common(1)[0][0]


if __name__ == "__main__":
    import sys
    if len(sys.argv) < 3 or sys.argv[1] != "totals":
        raise SystemExit("usage: callgrind.py totals FILE...")
    print(total(sys.argv[2:]))
