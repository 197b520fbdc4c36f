"""The TM1637 protocol decoded from the guest kernel's tracefs text.

The VM scenario Tests/vm/scenarios/tock-tm1637-wire.sh records
gpio:gpio_value (every line set and read of the GPIO character device, with
the kernel's timestamp) and syscalls:sys_enter_* of tock. This module turns
that into transfers (start, bytes LSB first, ACK, stop), frames (what one
`show` sends: data command while the chip's state is unknown, address
command with the changed grids, display control when it changes), the
display text each frame leaves, the timing of every clock phase, and the
protocol's floor per frame.

    python3 wire.py check DIR   # DIR: the scenario's files; exit 1 on a fault

`check` is the vm-test verdict: every transfer is well formed and
acknowledged, the frames' text is what tock's trace says it displayed, in
order, counting as the mode counts, and the clock and data timing meet the
datasheet's.
"""

import gzip
import json
import os
import re
import sys

# TM1637 datasheet (Titan Micro V2.4), "Interface interpretation" and the
# timing table: CLK at most 250 kHz as the modules are built (a half period
# of at least 2 us); data set-up and hold 100 ns around CLK's edges (the
# trace has microsecond stamps, so they are checked as not simultaneous).
MIN_HALF_PERIOD_US = 2.0
MIN_SETUP_HOLD_US = 1.0

DATA_COMMAND = 0x40
ADDRESS_COMMAND = 0xC0
CONTROL = 0x80
DISPLAY_ON = 0x08

# SevenSegmentFont (Sources/TockCore/Frame.swift): bit 0 = a ... bit 6 = g, bit 7 = dp.
GLYPHS = {
    " ": 0x00, "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
    "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
    "A": 0x77, "b": 0x7C, "C": 0x39, "c": 0x58, "d": 0x5E,
    "E": 0x79, "e": 0x7B, "F": 0x71, "H": 0x76, "h": 0x74,
    "J": 0x1E, "L": 0x38, "n": 0x54, "o": 0x5C, "P": 0x73,
    "r": 0x50, "t": 0x78, "U": 0x3E, "v": 0x1C, "y": 0x6E,
    "-": 0x40, "_": 0x08,
}
REVERSE = {v: k for k, v in GLYPHS.items()}

# GPIO character device ioctls (linux/gpio.h): v1 line handles, v2 line requests.
GPIO_IOCTLS = {
    0xC040B409: "ioctl GPIO set (v1)", 0xC040B408: "ioctl GPIO get (v1)",
    0xC010B40F: "ioctl GPIO set (v2)", 0xC010B40E: "ioctl GPIO get (v2)",
}

LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[\d+\]\s+\S+\s+"
                  r"(?P<ts>\d+\.\d+): (?P<body>.*)$")
EVENT = re.compile(r"^(?P<event>\w+): (?P<rest>.*)$")
SYSCALL = re.compile(r"^sys_(?P<name>\w+)\((?P<args>.*)\)$")


def register_bytes(text, digits=4):
    """The display registers TM1637.displayRegisters writes for trace text."""
    cells, points, colon = [], [], False
    for ch in text:
        if ch == ".":
            if not cells:
                cells.append(" "); points.append(False)
            points[-1] = True
        elif ch == ":":
            colon = True
        else:
            cells.append(ch); points.append(False)
    pad = digits - len(cells)
    cells = [" "] * pad + cells
    points = [False] * pad + points
    out = [GLYPHS[c] | (0x80 if p else 0) for c, p in zip(cells, points)]
    if colon and digits > 1:
        out[1] |= 0x80
    return out


def text_of(registers, digits=4):
    """Trace notation for display registers (GRID2's point is the colon)."""
    s = ""
    for i, b in enumerate(registers[:digits]):
        s += REVERSE.get(b & 0x7F, "?")
        if b & 0x80:
            s += ":" if (i == 1 and digits == 4) else "."
    return s


def read_events(path):
    """(markers, syscalls, line ops) from the tracefs text.

    A syscall is {ts, name, kind, fd}; a line op is {ts, line, op ('set' or
    'get'), value, call (index of the syscall that made it)}.
    """
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", errors="replace") as f:
        return read_events_from(f)


def read_events_from(lines):
    """read_events on lines of tracefs text."""
    markers, calls, ops = {}, [], []
    for raw in lines:
        m = LINE.match(raw)
        if not m:
            continue
        ts, body = float(m["ts"]), m["body"]
        s = SYSCALL.match(body)
        if s:
            args = dict(a.split(": ", 1) for a in s["args"].split(", ") if ": " in a)
            kind = s["name"]
            if kind == "ioctl":
                cmd = int(args.get("cmd", "0"), 16)
                kind = GPIO_IOCTLS.get(cmd, "ioctl %x" % cmd)
            fd = int(args["fd"], 16) if "fd" in args else None
            calls.append({"ts": ts, "name": s["name"], "kind": kind, "fd": fd})
            continue
        e = EVENT.match(body)
        if not e:
            continue
        event, rest = e["event"], e["rest"]
        if event == "tracing_mark_write":
            if rest.startswith("kpath: "):
                markers[rest[len("kpath: "):].strip()] = ts
        elif event == "gpio_value":
            line, op, value = rest.split()
            ops.append({"ts": ts, "line": int(line), "op": op, "value": int(value),
                        "call": len(calls) - 1})
    return markers, calls, ops


class WireError(Exception):
    pass


def decode(ops, clk, dio):
    """Transfers from the line ops on CLK and DIO (both start released, high).

    A transfer is {bytes, acks, ops (indices), first, last (ts), timing
    lists}. Raises WireError on anything the protocol does not allow.
    """
    level = {clk: 1, dio: 1}
    transfers, cur = [], None
    last_clk_edge = None      # (ts, value) of the last CLK change
    timing = {"clk_high": [], "clk_low": [], "setup": [], "hold": []}
    pending_setup = None      # ts of a DIO change while CLK low
    idle_ops = []             # ops between transfers: they count to the next one
    for i, o in enumerate(ops):
        line = o["line"]
        if line not in level:
            continue
        ts = o["ts"]
        if o["op"] == "get":
            if line != dio:
                raise WireError(f"{ts:.6f}: read of CLK")
            if cur is None or cur["bit"] != 8 or level[clk] != 1:
                raise WireError(f"{ts:.6f}: DIO read outside an ACK clock")
            cur["acks"].append(o["value"] == 0)
            cur["ops"].append(i)
            continue
        value = o["value"]
        if value == level[line]:
            # no edge: a wasted operation, not a protocol fault
            (cur["ops"] if cur is not None else idle_ops).append(i)
            continue
        level[line] = value
        if line == dio:
            if level[clk] == 1:
                if value == 0:       # start
                    if cur is not None:
                        raise WireError(f"{ts:.6f}: start inside a transfer")
                    cur = {"bytes": [], "acks": [], "ops": idle_ops + [i], "first": ts, "bit": 0, "byte": 0}
                    idle_ops = []
                else:                # stop: its CLK rise counted as a first bit
                    if cur is None or cur["bit"] != 1:
                        raise WireError(f"{ts:.6f}: stop in the middle of a byte")
                    cur["ops"].append(i)
                    cur["last"] = ts
                    transfers.append(cur)
                    cur = None
            else:
                if cur is None:
                    raise WireError(f"{ts:.6f}: DIO changed outside a transfer")
                cur["ops"].append(i)
                if last_clk_edge is not None:
                    timing["hold"].append((ts - last_clk_edge[0]) * 1e6)
                pending_setup = ts
        else:
            if cur is None and value == 0:
                raise WireError(f"{ts:.6f}: CLK low outside a transfer")
            if last_clk_edge is not None and cur is not None and last_clk_edge[0] >= cur["first"]:
                phase = "clk_low" if value == 1 else "clk_high"
                timing[phase].append((ts - last_clk_edge[0]) * 1e6)
            if cur is not None:
                cur["ops"].append(i)
                if value == 1:       # rising: the chip samples DIO
                    if pending_setup is not None:
                        timing["setup"].append((ts - pending_setup) * 1e6)
                        pending_setup = None
                    if cur["bit"] < 8:
                        cur["byte"] |= level[dio] << cur["bit"]
                        cur["bit"] += 1
                else:                # falling after the 9th clock ends a byte
                    if cur["bit"] == 8 and len(cur["acks"]) == len(cur["bytes"]) + 1:
                        cur["bytes"].append(cur["byte"])
                        cur["bit"], cur["byte"] = 0, 0
            last_clk_edge = (ts, value)
    if cur is not None:
        raise WireError("the trace ends inside a transfer")
    return transfers, timing


def frames(transfers):
    """Transfers grouped as one `show` sends them: [data command]
    [address command + grids] [display control]."""
    out, cur, stage = [], None, 9
    for t in transfers:
        b = t["bytes"][0] if t["bytes"] else None
        if b == DATA_COMMAND:
            s = 0
        elif b is not None and ADDRESS_COMMAND <= b <= ADDRESS_COMMAND + 5:
            s = 1
        elif b is not None and CONTROL <= b <= 0x8F:
            # 0x80 (off) is a dark frame's only command; a lit frame's control follows its grids
            s = 2 if b != CONTROL else 3
        else:
            raise WireError(f"{t['first']:.6f}: transfer of {t['bytes']} is no TM1637 command")
        if cur is None or s <= stage or s == 3:
            cur = []
            out.append(cur)
        cur.append(t)
        stage = s
    return out


def floor_ops(byte_lists):
    """The protocol's necessary line changes and reads for these transfers:
    start (DIO low, CLK low), per byte 8 x (DIO if it differs, CLK high, CLK
    low) and the ACK (DIO released if low, CLK high, read, CLK low), stop
    (DIO low, CLK high, DIO high)."""
    sets = reads = 0
    for bs in byte_lists:
        sets += 2
        dio = 0
        for b in bs:
            for bit in range(8):
                v = b >> bit & 1
                sets += (v != dio) + 2
                dio = v
            sets += (dio == 0) + 2
            reads += 1
            dio = 1
        sets += 3
    return sets, reads


def needed_transfers(before, after, control_before, control_after, state_known):
    """What a frame must send: the data command while the chip's state is
    unknown, the address command with the span of changed grids, the
    control byte when it changes."""
    out = []
    if after is not None and after != before:
        if not state_known:
            out.append([DATA_COMMAND])
        idx = [i for i in range(len(after)) if before is None or after[i] != before[i]]
        first, last = idx[0], idx[-1]
        out.append([ADDRESS_COMMAND + first] + after[first:last + 1])
    if control_after != control_before:
        out.append([control_after])
    return out


def analyse(files, digits=4):
    """Everything one run's files say: frames with text, ops, syscalls,
    bus time and floor; the window's per-frame figures."""
    env = dict(l.strip().split("=", 1) for l in read_lines(os.path.join(files, "wire.env")) if "=" in l)
    base = int(read_lines(os.path.join(files, "gpio-base.txt"))[0].strip())
    clk, dio = base + int(env["clk"]), base + int(env["dio"])
    markers, calls, ops = read_events(os.path.join(files, "events.txt.gz"))
    ops = [o for o in ops if o["line"] in (clk, dio)]
    transfers, timing = decode(ops, clk, dio)
    registers, control, known = None, None, False
    result = []
    for fr in frames(transfers):
        before, control_before, known_before = registers, control, known
        for t in fr:
            bs = t["bytes"]
            if not all(t["acks"]):
                raise WireError(f"{t['first']:.6f}: a byte of {bs} was not acknowledged")
            if bs[0] == DATA_COMMAND:
                known = True
            elif bs[0] >= ADDRESS_COMMAND:
                if not known:
                    raise WireError(f"{t['first']:.6f}: display data before a data command")
                start = bs[0] - ADDRESS_COMMAND
                registers = (registers or [0] * 6)[:]
                registers[start:start + len(bs) - 1] = bs[1:]
            else:
                control = bs[0]
        lit = control is not None and control & DISPLAY_ON
        frame_ops = [ops[i] for t in fr for i in t["ops"]]
        need = needed_transfers(before[:digits] if before else None,
                                registers[:digits] if registers and lit else None,
                                control_before, control, known_before)
        fsets, freads = floor_ops(need)
        first_call = frame_ops[0]["call"]
        last_call = frame_ops[-1]["call"]
        result.append({
            "first": fr[0]["first"], "last": fr[-1]["last"],
            "text": text_of(registers, digits) if lit else " " * digits,
            "bytes": [t["bytes"] for t in fr],
            "sets": sum(1 for o in frame_ops if o["op"] == "set"),
            "reads": sum(1 for o in frame_ops if o["op"] == "get"),
            "floor_sets": fsets, "floor_reads": freads,
            "calls": (first_call, last_call),
        })
    return {"env": env, "markers": markers, "calls": calls, "frames": result, "timing": timing,
            "fds": read_fds(os.path.join(files, "fds.txt"))}


def read_lines(path):
    with open(path) as f:
        return f.readlines()


def read_fds(path):
    fds = {}
    if os.path.exists(path):
        for l in read_lines(path):
            m = re.search(r"\s(\d+) -> (.*)$", l)
            if m:
                fds[int(m[1])] = m[2].strip()
    return fds


def expected_texts(files):
    out = []
    for l in read_lines(os.path.join(files, "trace.jsonl")):
        d = json.loads(l)
        if "display" in d:
            out.append(d["display"])
    return out


def counting_faults(mode, texts):
    """The wire's own sequence must count as the mode counts: a count-down
    by whole seconds without a gap (MM:SS), a stopwatch up (SS:hh) from its
    00:00."""
    faults = []
    if mode == "stopwatch" and "00:00" in texts:
        # the ready frames before the switch turned Up show the preset
        texts = texts[texts.index("00:00"):]
    def value(t):
        m = re.fullmatch(r"(\d\d):(\d\d)", t)
        return (int(m[1]), int(m[2])) if m else None
    vals = [value(t) for t in texts]
    if any(v is None for v in vals):
        return [f"a frame is not MM:SS or SS:hh: {texts}"]
    if mode == "timer":
        secs = [a * 60 + b for a, b in vals]
        for a, b in zip(secs, secs[1:]):
            if b != a - 1:
                faults.append(f"the count-down went from {a} s to {b} s")
    else:
        hs = [a * 100 + b for a, b in vals]
        for a, b in zip(hs, hs[1:]):
            if b <= a:
                faults.append(f"the stopwatch went from {a} to {b} hundredths")
    return faults


def check(files):
    """Faults of one run, [] when the wire is right."""
    try:
        a = analyse(files)
    except WireError as e:
        return [f"wire: {e}"]
    faults = []
    texts = [f["text"] for f in a["frames"]]
    want = expected_texts(files)
    # SIGTERM ends the service with the display off: one dark frame more
    if len(texts) == len(want) + 1 and not texts[-1].strip():
        texts = texts[:-1]
    if texts != want:
        faults.append(f"the wire shows {texts}, tock's trace says {want}")
    if len(texts) < 3:
        faults.append(f"only {len(texts)} frames on the wire")
    faults += counting_faults(a["env"].get("mode", "timer"), texts)
    limits = {"clk_high": MIN_HALF_PERIOD_US, "clk_low": MIN_HALF_PERIOD_US,
              "setup": MIN_SETUP_HOLD_US, "hold": MIN_SETUP_HOLD_US}
    for k, lim in limits.items():
        v = a["timing"][k]
        if not v:
            faults.append(f"no {k} phase measured")
        elif min(v) < lim:
            faults.append(f"{k} {min(v):.1f} us is under the datasheet's {lim} us")
    for f in a["frames"]:
        if f["sets"] < f["floor_sets"] or f["reads"] < f["floor_reads"]:
            faults.append(f"frame {f['text']!r}: {f['sets']} sets, {f['reads']} reads, under the floor "
                          f"{f['floor_sets']}/{f['floor_reads']}: the floor is miscounted")
    return faults


def check_splash(files):
    """Faults of a `tock splash` run (Tests/vm/scenarios/tock-splash.sh),
    [] when the wire carries one frame of wire.env's text at its
    brightness, within the datasheet's timing, and no other line moved."""
    env = dict(l.strip().split("=", 1) for l in read_lines(os.path.join(files, "wire.env")) if "=" in l)
    base = int(read_lines(os.path.join(files, "gpio-base.txt"))[0].strip())
    clk, dio = base + int(env["clk"]), base + int(env["dio"])
    _, _, ops = read_events(os.path.join(files, "events.txt.gz"))
    faults = []
    others = sorted({o["line"] - base for o in ops if o["line"] not in (clk, dio)})
    if others:
        faults.append(f"lines other than the display's were driven or read: offsets {others}")
    try:
        a = analyse(files)
    except WireError as e:
        return faults + [f"wire: {e}"]
    texts = [f["text"] for f in a["frames"]]
    if texts != [env["text"]]:
        faults.append(f"the wire shows {texts}, not one frame of {env['text']!r}")
    control = [bs[0] for f in a["frames"] for bs in f["bytes"] if CONTROL <= bs[0] <= 0x8F]
    want = CONTROL | DISPLAY_ON | int(env["brightness"])
    if control != [want]:
        faults.append(f"display control {[hex(c) for c in control]}, not [{hex(want)}] (on, brightness {env['brightness']})")
    for k, lim in {"clk_high": MIN_HALF_PERIOD_US, "clk_low": MIN_HALF_PERIOD_US,
                   "setup": MIN_SETUP_HOLD_US, "hold": MIN_SETUP_HOLD_US}.items():
        v = a["timing"][k]
        if not v:
            faults.append(f"no {k} phase measured")
        elif min(v) < lim:
            faults.append(f"{k} {min(v):.1f} us is under the datasheet's {lim} us")
    return faults


def main(argv):
    if len(argv) == 3 and argv[1] == "check-splash":
        faults = check_splash(argv[2])
        for f in faults:
            print("wire check-splash: FAIL: " + f, file=sys.stderr)
        if not faults:
            print(f"wire check-splash: one frame, {read_lines(os.path.join(argv[2], 'splash.log'))[0].strip()}, "
                  "no other line touched, timing within the datasheet")
        return 1 if faults else 0
    if len(argv) != 3 or argv[1] != "check":
        print("usage: wire.py check DIR | check-splash DIR", file=sys.stderr)
        return 2
    faults = check(argv[2])
    if faults:
        for f in faults:
            print("wire check: FAIL: " + f, file=sys.stderr)
        return 1
    a = analyse(argv[2])
    t = a["timing"]
    print(f"wire check: {len(a['frames'])} frames decoded, text as traced "
          f"({', '.join(f['text'] for f in a['frames'][:6])}{' ...' if len(a['frames']) > 6 else ''}); "
          f"min CLK high {min(t['clk_high']):.0f} us, low {min(t['clk_low']):.0f} us, "
          f"setup {min(t['setup']):.0f} us, hold {min(t['hold']):.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
