"""Reading callgrind's output files: the one parser Benchmarks/ shares.

    totals(path)                  the run's total instructions (Ir)
    per_address(path)             {instruction address: Ir}, from a dump made
                                  with --dump-instr=yes
    per_function(path)            {(object, function): Ir}, self cost

Costs on `calls=` lines' following line are inclusive costs of the call and
belong to the callee, so they are skipped here: every figure is self cost.
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
