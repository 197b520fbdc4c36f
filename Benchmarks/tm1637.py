#!/usr/bin/env python3
"""The TM1637 driver's cost per frame: line operations and instructions.

The real driver (Sources/TockDrivers/TM1637.swift) shows frames over the mock
two-wire bus (Sources/TockMock), built with them as `tm1637-frames`
(Benchmarks/tm1637/). The mock's waits only add up time, so the
instructions are the driver's, not a spin; the time the waits stand for
(a spin on a board, NanosleepDelay) is given beside them.

For each kind of frame (one, two, three or four digits changed, and a
count-down minute as it comes):

- line operations per frame, as the harness counts them (each a GPIO
  ioctl on a board), beside the floor: what the bytes sent need at least
  (start 2; per byte 16 clock edges, each DIO change between bits, the
  release of DIO for the ACK when the last bit was 0, 2 ACK clock edges
  and the ACK read; stop: DIO low if high, CLK up, DIO up), and what the
  same change would need written one grid at a time (an address command
  and one byte per changed grid);
- instructions per frame under callgrind, counting only inside the frame
  (--toggle-collect on the harness's `measured`): the driver's, on a bus
  whose calls do nothing, and apart what the mock bus adds (it decodes
  and checks every edge; a board's ioctl is not counted here).

    python3 tm1637.py --harness NAME=BIN [--harness NAME=BIN ...] [--out DIR]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import callgrind
import outputs

KINDS = ["1", "2", "3", "4", "count"]
LABEL = {"1": "one digit changed", "2": "two digits", "3": "three digits", "4": "four digits",
         "count": "a count-down, 10:00 to 08:00"}


def transaction_ops(data):
    """Line operations a start...stop of these bytes needs at least."""
    ops = 2  # start: DIO falls while CLK is high, CLK falls
    level = 0  # DIO is low after the start
    for byte in data:
        for bit in range(8):
            b = byte >> bit & 1
            if b != level:
                ops += 1
                level = b
            ops += 2  # CLK up, down
        if level == 0:
            ops += 1  # release DIO for the ACK
            level = 1
        ops += 3  # ACK clock up, read, down
    if level == 1:
        ops += 1  # DIO low while CLK is low
    return ops + 2  # CLK up, DIO up


def floors(tx):
    """(the bytes sent as sent, the change written grid by grid)."""
    burst = sum(transaction_ops(t) for t in tx)
    single = 0
    for t in tx:
        if len(t) > 1 and t[0] & 0xC0 == 0xC0:
            first = t[0] - 0xC0
            for i, byte in enumerate(t[1:]):
                single += transaction_ops([0xC0 + first + i, byte])
        else:
            single += transaction_ops(t)
    return burst, single


def frames(binary, kind, n):
    out = subprocess.run([binary, kind, str(n)], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        tx = [[int(b, 16) for b in t.split(",")] for t in f[7].split(";")] if len(f) > 7 else []
        rows.append({"text": f[1], "ops": int(f[3]), "wait_ns": int(f[5]), "tx": tx})
    return rows


def instructions(binary, kind, n, work, bus):
    """Instructions per frame inside `measured`: on the mock bus, or (bus
    "null") on one that does nothing, which leaves the driver's own."""
    out = os.path.join(work, f"callgrind.{kind}.{bus}")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--toggle-collect=*measured*",
                    binary, kind, str(n)] + (["null"] if bus == "null" else []), check=True, capture_output=True)
    total = callgrind.totals(out)
    if not total:
        raise RuntimeError("callgrind wrote no totals")
    return total / n


def measure(binary, n):
    work = tempfile.mkdtemp(prefix="tock-tm1637-")
    result = {}
    for kind in KINDS:
        rows = frames(binary, kind, n)
        ops = [r["ops"] for r in rows]
        fl = [floors(r["tx"]) for r in rows]
        driver = instructions(binary, kind, n, work, "null")
        mock = instructions(binary, kind, n, work, "mock") - driver
        result[kind] = {
            "ops_min": min(ops), "ops_max": max(ops), "ops_mean": sum(ops) / len(ops),
            "floor_mean": sum(b for b, _ in fl) / len(fl), "floor_min": min(b for b, _ in fl),
            "floor_max": max(b for b, _ in fl), "grid_by_grid_mean": sum(s for _, s in fl) / len(fl),
            "wait_us_mean": sum(r["wait_ns"] for r in rows) / len(rows) / 1000,
            "instructions": driver, "mock_bus": mock, "frames": len(rows),
        }
    return result


def span(lo, hi):
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", action="append", required=True, metavar="NAME=BIN")
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--out")
    args = ap.parse_args()
    lines = ["| build | frames | line operations (mean) | floor for those bytes | grid by grid | "
             "instructions per frame: driver | the mock bus adds | bus time (a spin on a board) |",
             "|---|---|---|---|---|---|---|---|"]
    results = {}
    for spec in args.harness:
        name, binary = spec.split("=", 1)
        print(f"tm1637: {name} ...", file=sys.stderr, flush=True)
        results[name] = r = measure(binary, args.frames)
        for kind in KINDS:
            k = r[kind]
            lines.append(f"| {name} | {LABEL[kind]} | {span(k['ops_min'], k['ops_max'])} ({k['ops_mean']:.1f}) | "
                         f"{span(k['floor_min'], k['floor_max'])} ({k['floor_mean']:.1f}) | {k['grid_by_grid_mean']:.1f} | "
                         f"{k['instructions']:,.0f} | {k['mock_bus']:,.0f} | {k['wait_us_mean']:.0f} µs |")
    outputs.write(args.out, "\n".join(lines) + "\n", results)


if __name__ == "__main__":
    main()
