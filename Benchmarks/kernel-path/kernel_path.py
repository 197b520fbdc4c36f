#!/usr/bin/env python3
"""Tock's display path through a real kernel: the release binary in the
gpio-sim VM (Tests/vm), per display frame.

    kernel_path.py --tock NAME=PATH [--tock NAME=PATH ...] --out DIR
                   [--timer-seconds 10] [--stopwatch-seconds 3] [--no-i2c]

For each binary, a count-down (MM:SS, a frame a second) and a stopwatch
(SS:hh, a frame every 10 ms asked for) run in one VM each with the scenario
Tests/vm/scenarios/tock-tm1637-wire.sh, which records the guest kernel's
gpio and syscall trace events; wire.py decodes the TM1637 protocol from them.
Then an HT16K33 is tried on the kernel's i2c-stub (i2c-stub.sh). Writes
DIR/results.json and DIR/TABLE.md. VM_ARCH=arm64 runs the arm64 guest.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import wire  # noqa: E402

SCENARIO = os.path.join(REPO, "Tests/vm/scenarios/tock-tm1637-wire.sh")
RUN_IN_VM = os.path.join(REPO, "Tests/vm/run-in-vm.sh")
ARCH = os.environ.get("VM_ARCH", "amd64")
VM_CACHE = os.environ.get("VM_CACHE", os.path.join(REPO, ".cache", "vm" if ARCH == "amd64" else "vm-arm64"))


def run_vm(binary, script, out, env=(), files=(), timeout=150):
    cmd = ["bash", RUN_IN_VM, "--binary", binary, "--script", script, "--out", out, "--timeout", str(timeout)]
    for e in env:
        cmd += ["--env", e]
    for f in files:
        cmd += ["--file", f]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"kernel-path: the VM run failed:\n{r.stdout}{r.stderr}")
    return r.stdout.strip()


def kind_label(call, fds):
    k = call["kind"]
    if call["name"] in ("write", "writev") and call["fd"] is not None:
        target = fds.get(call["fd"], "")
        if target.endswith("trace.jsonl"):
            return k + " (--trace file)"
        if target.endswith("tock.log"):
            return k + " (log)"
    return k


def per_frame(files, mode):
    """The figures of one run: frames in the window and everything per frame."""
    a = wire.analyse(files)
    ws, we = a["markers"]["window start"], a["markers"]["window end"]
    frames = [f for f in a["frames"] if f["first"] >= ws and f["last"] <= we]
    n = len(frames)
    if n == 0:
        raise SystemExit(f"kernel-path: no frame inside the window in {files}")
    calls = a["calls"]
    window_calls = [c for c in calls if ws <= c["ts"] <= we]
    by_kind = {}
    for c in window_calls:
        k = kind_label(c, a["fds"])
        by_kind[k] = by_kind.get(k, 0) + 1
    in_frame = {}
    for f in frames:
        lo, hi = f["calls"]
        for c in calls[lo:hi + 1]:
            k = kind_label(c, a["fds"])
            in_frame[k] = in_frame.get(k, 0) + 1
    bus_ms = [(f["last"] - f["first"]) * 1e3 for f in frames]
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    t = a["timing"]
    return {
        "mode": mode,
        "window_s": round(we - ws, 3),
        "frames": n,
        "frames_per_s": round(n / (we - ws), 2),
        "texts": [f["text"] for f in frames[:3]] + (["..."] if n > 3 else []),
        "line_sets": round(mean([f["sets"] for f in frames]), 1),
        "line_reads": round(mean([f["reads"] for f in frames]), 2),
        "floor_sets": round(mean([f["floor_sets"] for f in frames]), 1),
        "floor_reads": round(mean([f["floor_reads"] for f in frames]), 2),
        "bytes": round(mean([sum(len(b) for b in f["bytes"]) for f in frames]), 2),
        "transfers": round(mean([len(f["bytes"]) for f in frames]), 2),
        "syscalls": round(len(window_calls) / n, 1),
        "syscalls_by_kind": {k: round(v / n, 2) for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])},
        "syscalls_in_bus_time": round(sum(in_frame.values()) / n, 1),
        "syscalls_in_bus_time_by_kind": {k: round(v / n, 2) for k, v in sorted(in_frame.items(), key=lambda kv: -kv[1])},
        "bus_ms_median": round(statistics.median(bus_ms), 3),
        "bus_ms_max": round(max(bus_ms), 3),
        "timing_us": {k: {"min": round(min(v), 1), "median": round(statistics.median(v), 1)} for k, v in t.items() if v},
        "wire_check": wire.check(files) or "ok",
    }


def i2c_modules(work):
    """i2c-dev.ko and i2c-stub.ko for the VM's kernel, from Debian's image
    package (the VM's kernel carries only configfs and gpio-sim)."""
    release = os.path.basename(os.path.realpath(os.path.join(VM_CACHE, "kernel/current")))
    dest = os.path.join(REPO, ".cache/kernel-path", release)
    mods = [os.path.join(dest, m) for m in ("i2c-dev.ko", "i2c-stub.ko")]
    if all(os.path.exists(m) for m in mods):
        return mods
    os.makedirs(dest, exist_ok=True)
    pkg = f"linux-image-{release}" + ("" if ARCH == "amd64" else ":arm64")
    subprocess.run(["apt-get", "-q", "-o", "APT::Sandbox::User=root", "download", pkg], cwd=work, check=True,
                   stdout=subprocess.DEVNULL)
    deb = [f for f in os.listdir(work) if f.endswith(".deb")][0]
    root = os.path.join(work, "root")
    subprocess.run(["dpkg", "-x", os.path.join(work, deb), root], check=True)
    for m in mods:
        name = os.path.basename(m)
        found = subprocess.run(["find", root, "-name", name + "*"], capture_output=True, text=True).stdout.split()
        if not found:
            raise SystemExit(f"kernel-path: {name} is not in {deb}")
        src = found[0]
        tool = {".xz": ["xz", "-dc"], ".zst": ["zstd", "-dc"]}.get(os.path.splitext(src)[1], ["cat"])
        with open(m, "wb") as f:
            subprocess.run(tool + [src], stdout=f, check=True)
    return mods


def run_i2c(binary, out):
    with tempfile.TemporaryDirectory() as work:
        mods = i2c_modules(work)
    files = [f"{m}:/lib/modules/extra/{os.path.basename(m)}" for m in mods]
    run_vm(binary, os.path.join(HERE, "i2c-stub.sh"), out, files=files, timeout=90)
    d = os.path.join(out, "files")
    read = lambda n: open(os.path.join(d, n)).read() if os.path.exists(os.path.join(d, n)) else ""  # noqa: E731
    return {"tock": read("tock.log").strip(), "smbus": read("smbus.txt").strip(),
            "write_syscalls": read("writes.txt").strip()}


def fmt_kinds(d, limit=6):
    return ", ".join(f"{k} {v:g}" for k, v in list(d.items())[:limit])


def table(results, i2c):
    lines = ["# Tock's display path through the kernel (gpio-sim VM)", "",
             "Made by `make bench-kernel-path` (Benchmarks/kernel-path/kernel_path.py; method in",
             "Benchmarks/README.md, \"The kernel path\"). Guest: "
             f"{results['guest']}, under QEMU TCG on {results['host']}.", "",
             "Per frame (one display update on the wire), over the measured window of counting.",
             "Floor: the TM1637 protocol's necessary line changes and reads for the bytes the frame must",
             "send (wire.py `floor_ops`). Syscalls: every system call of tock in the window, divided by",
             "the frames; \"in bus time\" only those from a frame's first to its last line change.", "",
             "| binary | display | mode | frames (per s) | line sets (floor) | reads (floor) | bytes | syscalls | in bus time | bus time median / max |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["runs"]:
        lines.append(f"| {r['binary']} | TM1637 | {r['mode']} | {r['frames']} ({r['frames_per_s']:g}) | "
                     f"{r['line_sets']:g} ({r['floor_sets']:g}) | {r['line_reads']:g} ({r['floor_reads']:g}) | "
                     f"{r['bytes']:g} | {r['syscalls']:g} | {r['syscalls_in_bus_time']:g} | "
                     f"{r['bus_ms_median']:g} / {r['bus_ms_max']:g} ms |")
    lines += ["", "The other displays, beside their floor:", "",
              "| display | bus | floor a frame | measured |",
              "|---|---|---|---|",
              "| HT16K33 | I2C, `/dev/i2c-N` | 1 transfer: the changed RAM span after its address (the driver: one `write(2)`, plus a command when dimming or display setup changes) | no: i2c-stub takes SMBus only, the write gets EOPNOTSUPP (below) |",
              "| MAX7219 | SPI, `/dev/spidevB.C` | 1 system call: one `SPI_IOC_MESSAGE` ioctl with a CS cycle per changed digit register (the chip latches each 16-bit word on LOAD; the driver: one `write(2)` per changed register) | no: nothing in the VM simulates an SPI device |",
              "", "Syscalls per frame by kind (whole window):", ""]
    for r in results["runs"]:
        lines.append(f"- {r['binary']}, {r['mode']}: {fmt_kinds(r['syscalls_by_kind'], 10)}")
    lines += ["", "Wire timing (µs, tracepoint stamps; datasheet: half period ≥ 2, set-up and hold ≥ 0.1):", "",
              "| binary | mode | CLK high min / median | CLK low min / median | DIO set-up min / median | DIO hold min / median | decoded content |",
              "|---|---|---|---|---|---|---|"]
    for r in results["runs"]:
        t = r["timing_us"]
        cell = lambda k: f"{t[k]['min']:g} / {t[k]['median']:g}" if k in t else "-"  # noqa: E731
        ok = "as traced" if r["wire_check"] == "ok" else "; ".join(r["wire_check"])
        lines.append(f"| {r['binary']} | {r['mode']} | {cell('clk_high')} | {cell('clk_low')} | {cell('setup')} | "
                     f"{cell('hold')} | {ok} |")
    lines += ["", "Instructions: not counted. The amd64 guest has no PMU under TCG (its kernel: \"PMU not",
              "available due to virtualization, using software events only\"). The arm64 guest's kernel finds",
              "QEMU's emulated PMUv3, but QEMU counts retired instructions only with `-icount`, which the VM",
              "does not use (it ties the guest's clock to the instruction count). Callgrind in the guest was",
              "tried: tock under valgrind 3.19 in the amd64 guest did not reach ready within 120 s, on a",
              "2-core host shared with builds (valgrind reads the 85 MB static binary's debug information at",
              "emulated speed). Had it run, the frame's spin on clock_gettime between edges would count",
              "the emulator's speed. Instructions per second of counting: make bench-startup and make",
              "bench-compare (mock backend).", ""]
    if results["arch"] != "amd64":
        lines += ["The HT16K33 on i2c-stub is tried on the amd64 guest only (Benchmarks/kernel-path/TABLE.md);",
                  "the stub and i2c-dev behave alike on both.", ""]
    if i2c:
        lines += ["## HT16K33 on i2c-stub", "", "The VM's kernel ships `i2c-stub` (CONFIG_I2C_STUB=m): an SMBus-only",
                  "adapter (no `master_xfer`). Tock's HT16K33 transfer is one `write(2)` on `/dev/i2c-N`, which",
                  "i2c-dev turns into a plain I2C message: the stub refuses it, so no frame reaches it.", "",
                  "```text", i2c["tock"], "```", "", "SMBus through the same stub (busybox i2cset/i2cget):", "",
                  "```text", i2c["smbus"], "```", "", "tock's write(2) calls on the bus device:", "",
                  "```text", i2c["write_syscalls"] or "(none)", "```", "",
                  "Floor for I2C (HT16K33) and SPI (MAX7219): one transfer per frame. Neither is measured:",
                  "i2c-stub cannot take the driver's transfer, and nothing in the kernel simulates an SPI",
                  "device behind spidev (CONFIG_SPI_SPIDEV=y, but there is no SPI controller in the VM; a",
                  "bus bit-banged on gpio-sim lines would need spi-gpio or i2c-gpio and a board description,",
                  "and Debian's kernel sets neither: CONFIG_SPI_GPIO and CONFIG_I2C_GPIO are off).", ""]
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tock", action="append", default=[], help="NAME=PATH of a tock binary (repeatable)")
    p.add_argument("--out", required=True)
    p.add_argument("--timer-seconds", type=int, default=10)
    p.add_argument("--stopwatch-seconds", type=int, default=3)
    p.add_argument("--no-i2c", action="store_true")
    p.add_argument("--table-only", action="store_true", help="rewrite TABLE.md from DIR/results.json")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.table_only:
        with open(os.path.join(args.out, "results.json")) as f:
            results = json.load(f)
        with open(os.path.join(args.out, "TABLE.md"), "w") as f:
            f.write(table(results, results["i2c_stub"]))
        return
    if not args.tock:
        p.error("--tock NAME=PATH is required")
    work = os.path.join(REPO, ".build", "kernel-path")
    runs = []
    binaries = [t.split("=", 1) if "=" in t else (os.path.basename(t), t) for t in args.tock]
    guest = None
    for name, path in binaries:
        for mode, secs in (("timer", args.timer_seconds), ("stopwatch", args.stopwatch_seconds)):
            out = os.path.join(work, f"{ARCH}-{name}-{mode}")
            print(f"kernel-path: {name} {mode} ({secs} s window)", flush=True)
            summary = run_vm(os.path.abspath(path), SCENARIO, out, env=[f"WIRE_MODE={mode}", f"WIRE_SECONDS={secs}"])
            guest = guest or summary.split("(", 1)[-1].split(",")[0]
            r = per_frame(os.path.join(out, "files"), mode)
            r["binary"] = name
            r["arch"] = ARCH
            runs.append(r)
            print(f"kernel-path:   {r['frames']} frames, {r['line_sets']} line sets (floor {r['floor_sets']}), "
                  f"{r['syscalls']} syscalls a frame, bus {r['bus_ms_median']} ms", flush=True)
    i2c = None
    if not args.no_i2c and ARCH == "amd64":
        print("kernel-path: HT16K33 on i2c-stub", flush=True)
        i2c = run_i2c(os.path.abspath(binaries[-1][1]), os.path.join(work, f"{ARCH}-i2c-stub"))
    results = {"arch": ARCH, "guest": guest, "host": f"{platform.machine()} {platform.processor() or ''}".strip(),
               "runs": runs, "i2c_stub": i2c}
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    with open(os.path.join(args.out, "TABLE.md"), "w") as f:
        f.write(table(results, i2c))
    print(f"kernel-path: {args.out}/TABLE.md")


if __name__ == "__main__":
    main()
