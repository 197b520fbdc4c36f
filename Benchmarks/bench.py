"""make bench: Tock and two peers, one after another, under the same
conditions; the figures as a table on stdout and in RESULTS.md, the plots
as PNG. See README.md in this directory for what is measured and how.

usage: bench.py --tock BIN --swift-timer BIN --python VENV-PYTHON --out DIR [--quick]
       bench.py --tock NEW --compare OLD --out DIR [--rounds N] [--idle-seconds S]
"""
import argparse
import ctypes
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import analysis
import callgrind
import memory
import outputs

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
UNIT = os.path.join(ROOT, "deploy", "tock.service")


class Plan:
    def __init__(self, quick):
        self.quick = quick
        self.count_s = 4 if quick else 16       # the count-down measured
        self.idle_s = 1 if quick else 3         # ready, nothing running
        self.flips = 12 if quick else 50        # switch flips for input latency
        self.stop_s = 2                         # SIGSTOP in the stop condition
        self.margin_s = 1.0                     # after the ideal end
        self.conditions = ["idle", "load", "stop"]
        # Tock without the unit's scheduling shows what the settings buy.
        self.programs = ["tock", "swift-timer", "gpiozero"] + ([] if quick else ["tock-untuned"])


def monotonic_ns():
    return time.monotonic_ns()


# ---------------------------------------------------------------- scheduling

def unit_scheduling(path=None):
    """The [Service] scheduling settings of the unit, as systemd applies them."""
    keys = {"CPUSchedulingPolicy", "CPUSchedulingPriority", "Nice", "TimerSlackNSec"}
    out = {}
    section = None
    for line in open(path or UNIT):
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            if k in keys:
                out[k] = v
    return out


def apply_scheduling(settings):
    """Runs in the child before exec, as systemd's exec does."""
    libc = ctypes.CDLL(None, use_errno=True)
    if "TimerSlackNSec" in settings:
        libc.prctl(29, ctypes.c_ulong(int(settings["TimerSlackNSec"])), 0, 0, 0)  # PR_SET_TIMERSLACK
    if "Nice" in settings:
        os.nice(int(settings["Nice"]))
    policy = settings.get("CPUSchedulingPolicy")
    if policy in ("fifo", "rr"):
        p = {"fifo": os.SCHED_FIFO, "rr": os.SCHED_RR}[policy]
        os.sched_setscheduler(0, p, os.sched_param(int(settings.get("CPUSchedulingPriority", "1"))))


# ---------------------------------------------------------------- counters

def sample(pid):
    """CPU time (ns, schedstat) and voluntary context switches (a sleep that
    ended in a wake-up) summed over the process's threads, and when."""
    cpu = vol = invol = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            cpu += int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
            for line in open(f"/proc/{pid}/task/{tid}/status"):
                if line.startswith("voluntary_ctxt_switches"):
                    vol += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches"):
                    invol += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
    return {"t": monotonic_ns(), "cpu_ns": cpu, "voluntary": vol, "involuntary": invol}


def memory_kb(pid):
    """Peak RSS (VmHWM), and the resident set now split into anonymous
    memory (the process's own, which only it can free) and file-backed
    pages (the program's code and data, which the kernel may drop and read
    again): /proc/PID/status, proc(5)."""
    fields = memory.status(pid)
    return {k: fields[k] for k in ("VmHWM", "RssAnon", "RssFile") if k in fields}


# ---------------------------------------------------------------- one run

class Run:
    def __init__(self, program, condition, plan, binaries, work):
        self.program, self.condition, self.plan, self.bin = program, condition, plan, binaries
        self.count_s = plan.count_s
        self.dir = os.path.join(work, f"{program}-{condition}")
        os.makedirs(self.dir, exist_ok=True)
        self.fifo = os.path.join(self.dir, "input")
        self.log = os.path.join(self.dir, "events.log")
        os.mkfifo(self.fifo)

    def command(self):
        p, d = self.program, self.count_s
        if p.startswith("tock"):
            config = os.path.join(self.dir, "config.yaml")
            with open(config, "w") as f:
                f.write(f"mode: timer\ntimer: {{presets: [{d}s]}}\nalarm: {{chirp: false}}\n")
            return [self.bin["tock"], "run", "--backend", "mock", "--config", config,
                    "--mock-input", self.fifo, "--timing-log", self.log], {}
        if p == "swift-timer":
            return [self.bin["swift-timer"], str(d), self.fifo, self.log], {}
        if p in ("floor-swift", "floor-c"):  # Benchmarks/floor: the least a count-down MM:SS costs
            return [self.bin[p], str(d), self.fifo, self.log], {}
        if p == "swift-timer-1hz":  # the same program ticking once a second: the fairest peer for MM:SS
            return [self.bin["swift-timer"], str(d), self.fifo, self.log], {"SWIFT_TIMER_INTERVAL": "1"}
        return [self.bin["python"], os.path.join(HERE, "peers", "gpiozero_timer.py"), str(d), self.fifo, self.log], \
            {"GPIOZERO_PIN_FACTORY": "mock"}

    def write(self, text):
        os.write(self.writer, text.encode())

    def scheduling(self):
        """Tock runs as the unit says; its variants and the peers do not."""
        return {"tock": unit_scheduling(), "tock-nice": {"Nice": "-10"}}.get(self.program, {})

    def spawn(self, wrap=lambda cmd: cmd, scheduled=True, notify=True):
        """Start the program (its command passed through `wrap`), with a
        NOTIFY_SOCKET for Tock (unless `notify` is false) and the input pipe
        open for writing; note the instant just before, for the start-up
        figure."""
        cmd, env_extra = self.command()
        env = dict(os.environ, **env_extra)
        sched = self.scheduling() if scheduled else {}
        self.notify = None
        if notify and self.program.startswith("tock"):
            self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            path = os.path.join(self.dir, "notify")
            self.notify.bind(path)
            env["NOTIFY_SOCKET"] = path
        # A writer first, so the peers' open() for reading does not block.
        self.writer = os.open(self.fifo, os.O_RDWR)
        self.spawned = monotonic_ns()
        self.proc = subprocess.Popen(wrap(cmd), env=env, stdout=subprocess.PIPE,
                                     stderr=open(os.path.join(self.dir, "stderr"), "w"),
                                     preexec_fn=(lambda: apply_scheduling(sched)) if sched else None)
        return sched

    def stop(self, timeout=10):
        """SIGTERM (the programs write their logs then), SIGKILL if it hangs."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.writer)
        if self.notify:
            self.notify.close()

    def ready_instant(self):
        """The program's own CLOCK_MONOTONIC reading when it was ready."""
        return next(e["t"] for e in analysis.parse_log(open(self.log).read()) if e["kind"] == "ready")

    def run(self):
        plan = self.plan
        sched = self.spawn()
        proc = self.proc
        result = {"program": self.program, "condition": self.condition, "scheduling": sched}
        try:
            self.wait_ready()
            time.sleep(0.3)
            idle0 = sample(proc.pid)
            time.sleep(plan.idle_s)
            idle1 = sample(proc.pid)
            flips = self.flip_switch()
            time.sleep(0.3)
            start = monotonic_ns()
            self.write(f"start 1 {start}\n")
            time.sleep(0.1)
            self.write(f"start 0 {monotonic_ns()}\n")
            # Counting alone: from after the press and its release settled.
            self.sleep_until(start + 0.5e9)
            count0 = sample(proc.pid)
            end = start + plan.count_s * 1e9
            if self.condition == "stop":
                self.sleep_until(start + plan.count_s * 1e9 / 2)
                os.kill(proc.pid, signal.SIGSTOP)
                time.sleep(plan.stop_s)
                os.kill(proc.pid, signal.SIGCONT)
            self.sleep_until(end - 0.2e9)
            count1 = sample(proc.pid)
            # The peers may ring late by the stop and more: wait for it.
            self.sleep_until(end + (plan.margin_s + (plan.stop_s + 0.5 if self.condition == "stop" else 0)) * 1e9)
            memory = memory_kb(proc.pid)
            result["peak_rss_kb"] = memory.get("VmHWM")
            result["rss_anon_kb"] = memory.get("RssAnon")
            result["rss_file_kb"] = memory.get("RssFile")
        finally:
            self.stop()
        events = analysis.parse_log(open(self.log).read())
        display = analysis.display_for(self.program)
        result.update({
            "startup_ms": (self.ready_instant() - self.spawned) / 1e6,
            "alarm_error_ms": analysis.alarm_error_ms(events, start, plan.count_s),
            "lateness_us": analysis.lateness_us(events, start, end + plan.margin_s * 1e9),
            "count_errors": analysis.count_errors(events, display, start, plan.count_s),
            "input_ms": analysis.input_latencies_ms(events, flips, display, plan.count_s),
            "flips": len(flips),
            "idle": analysis.counter_rates(idle0, idle1),
            "counting": analysis.counter_rates(count0, count1),
            "display_changes_per_s": analysis.display_changes(events, count0["t"], count1["t"]) / ((count1["t"] - count0["t"]) / 1e9),
        })
        return result

    def wait_ready(self, timeout=30):
        deadline = time.monotonic() + timeout
        if self.notify:  # sd_notify, as systemd waits for it
            self.notify.settimeout(timeout)
            while b"READY=1" not in self.notify.recv(4096):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self.program}: no READY=1")
            # Then keep reading STATUS= as systemd does.
            threading.Thread(target=self.drain, args=(self.notify,), daemon=True).start()
            return
        line = self.proc.stdout.readline()
        if line.strip() != b"ready":
            raise RuntimeError(f"{self.program}: did not start ({line!r}); see {self.dir}/stderr")

    @staticmethod
    def drain(sock):
        try:
            sock.settimeout(None)
            while sock.recv(4096):
                pass
        except OSError:
            pass  # closed at the end of the run

    def flip_switch(self):
        """Flip the switch Up and Down at random spacings (not in step with
        any program's period); each flip's edge carries its timestamp."""
        rng = random.Random(7)
        flips = []
        for i in range(self.plan.flips):
            time.sleep(rng.uniform(0.09, 0.16))
            up = 1 if i % 2 == 0 else 0
            t = monotonic_ns()
            self.write(f"switch {up} {t}\n")
            flips.append((t, up))
        return flips

    @staticmethod
    def sleep_until(t_ns):
        d = (t_ns - monotonic_ns()) / 1e9
        if d > 0:
            time.sleep(d)


def startups(program, plan, binaries, work, n):
    """Start-up, launched n times on the idle machine: from the instant
    before the program is started to the instant it says it is ready (its
    own CLOCK_MONOTONIC reading), in ms."""
    out = []
    for i in range(n):
        run = Run(program, f"startup{i}", plan, binaries, work)
        run.spawn()
        try:
            run.wait_ready()
            # The Swift peer's SIGTERM handler (a dispatch source) is armed
            # asynchronously; a signal right after "ready" could be lost.
            time.sleep(0.3)
        finally:
            run.stop()
        out.append((run.ready_instant() - run.spawned) / 1e6)
    return {"program": program, "startup_ms": out}


def idle_clock(plan, binaries, work, seconds=None):
    """Wake-ups per minute of an idle `tock run` with the idle clock off,
    with its blinking colon, and with a steady colon: voluntary context
    switches of the process while it sits in ready, measured after the clock
    has taken the display. `require_sync: false`, so a machine whose clock
    the kernel calls unsynchronised still shows the time."""
    seconds = seconds or (30 if plan.quick else 120)
    rows = []
    for name, extra in [("off", "display: {idle: off}"),
                        ("blinking colon", "display: {idle: clock, idle_after: 1s}\nclock: {colon: blink, require_sync: false}"),
                        ("steady colon", "display: {idle: clock, idle_after: 1s}\nclock: {colon: steady, require_sync: false}")]:
        d = os.path.join(work, "idle-clock-" + name.replace(" ", "-"))
        os.makedirs(d, exist_ok=True)
        config = os.path.join(d, "config.yaml")
        with open(config, "w") as f:
            f.write("mode: timer\n" + extra + "\n")
        proc = subprocess.Popen([binaries["tock"], "run", "--backend", "mock", "--config", config],
                                stdout=subprocess.DEVNULL, stderr=open(os.path.join(d, "stderr"), "w"))
        time.sleep(3)  # started, and the clock (after 1 s) showing
        before = sample(proc.pid)
        time.sleep(seconds)
        after = sample(proc.pid)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        minutes = (after["t"] - before["t"]) / 60e9
        rows.append({"idle": name, "seconds": round(minutes * 60, 1),
                     "wakeups_per_min": round((after["voluntary"] - before["voluntary"]) / minutes, 1),
                     "cpu_ms_per_min": round((after["cpu_ns"] - before["cpu_ns"]) / 1e6 / minutes, 3)})
        print(f"idle clock {name}: {rows[-1]['wakeups_per_min']} wake-ups/min", flush=True)
    return rows


def platform_floor(condition, plan):
    """The machine's own wake-up lateness: cyclictest (rt-tests) sleeping
    with clock_nanosleep to absolute deadlines at SCHED_FIFO 1, as Tock is
    scheduled, every 100 ms. --laptop leaves /dev/cpu_dma_latency alone, so
    the CPUs idle as they do for the programs. The best any program can do
    here."""
    loops = 20 if plan.quick else 200
    load = Load(loops / 10 + 5) if condition == "load" else None
    try:
        out = subprocess.run(["cyclictest", "--laptop", "-p", "1", "-i", "100000", "-l", str(loops), "-v", "-q"],
                             capture_output=True, text=True, timeout=loops / 10 + 60).stdout
    finally:
        if load:
            load.stop()
    samples = []
    for line in out.splitlines():
        parts = line.replace(":", " ").split()
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            samples.append(float(parts[2]))
    return {"condition": condition, "lateness_us": samples}


def instructions(program, plan, binaries, work):
    """User-space instructions per second of counting, under valgrind's
    callgrind: a count of the program's own work that does not depend on the
    machine's noise (the same binary and inputs give the same count). The
    counters are zeroed 2 s into a count-down and read 10 s later."""
    run = Run(program, "callgrind", plan, binaries, work)
    run.count_s = 30  # still counting when the counters are read

    def under_callgrind(cmd):
        if program != "gpiozero":  # valgrind 3.19 cannot read this toolchain's DWARF 5: drop it
            stripped = os.path.join(run.dir, "program")
            subprocess.run(["strip", "--strip-debug", "-o", stripped, cmd[0]], check=True)
            cmd = [stripped] + cmd[1:]
        return ["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.path.join(run.dir, 'callgrind.out')}"] + cmd

    # Without NOTIFY_SOCKET, as measured so far: Tock's STATUS= line, sent
    # at each display change, is left out of its count.
    run.spawn(under_callgrind, scheduled=False, notify=False)
    try:
        if program.startswith("tock"):
            time.sleep(15)  # no notify socket here: generous for start-up under valgrind
        else:
            run.wait_ready(timeout=300)  # start-up runs some 50 times slower
        run.write(f"start 1 {monotonic_ns()}\n")
        time.sleep(0.2)
        run.write(f"start 0 {monotonic_ns()}\n")
        time.sleep(2)
        subprocess.run(["callgrind_control", "-z", str(run.proc.pid)], capture_output=True, timeout=60)
        began = monotonic_ns()
        time.sleep(10)
        subprocess.run(["callgrind_control", "-d", str(run.proc.pid)], capture_output=True, timeout=60)
        seconds = (monotonic_ns() - began) / 1e9
    finally:
        run.stop(timeout=60)
    dumps = [f for f in os.listdir(run.dir) if f.startswith("callgrind.out.")]
    total = callgrind.total(os.path.join(run.dir, f) for f in dumps)
    return {"program": program, "instructions_per_s": total / seconds if dumps else None}


# ---------------------------------------------------------------- start-up and footprint

PYTHON_FLOOR = "import sys; print('ready', flush=True); open(sys.argv[2]).read()"


def floor_programs(binaries):
    """(name, command, environment) of each floor: the least a program built
    the same way costs, doing nothing but saying ready and waiting on the
    peers' input pipe. Swift without Foundation linked as Tock is (static
    standard library) and as the Swift peer is (shared), and the bare
    interpreter for the Python peer."""
    out = []
    if binaries.get("floor-static"):
        out.append(("floor: static Swift, no Foundation", [binaries["floor-static"]], None))
    if binaries.get("floor-dynamic"):
        out.append(("floor: shared Swift, no Foundation", [binaries["floor-dynamic"]], None))
    out.append(("floor: Python, no imports", [sys.executable, "-c", PYTHON_FLOOR], None))
    return out


def floor_memory(cmd, env, work):
    """A floor program's resident memory 3 s after it said ready."""
    os.makedirs(work, exist_ok=True)
    fifo = os.path.join(work, "input")
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDWR)
    proc = subprocess.Popen(cmd + ["60", fifo, os.path.join(work, "log")], env=env, stdout=subprocess.PIPE)
    try:
        if proc.stdout.readline().strip() != b"ready":
            raise RuntimeError(f"{cmd[0]} did not start")
        time.sleep(3)
        return memory_kb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        os.close(keep)


def footprint(binaries, results, work, instructions=True):
    """Instructions from exec to ready (callgrind, startup.py's method) and
    resident memory, for Tock, the peers and the floor under each: peak
    (VmHWM) and steady (RssAnon + RssFile at the end of the idle-condition
    run for the programs, 3 s after ready for the floors)."""
    import startup
    rows = []
    for program in ("tock", "swift-timer", "gpiozero"):
        r = find_result(results, program, "idle")
        row = {"program": program, "peak_kb": r and r.get("peak_rss_kb"),
               "steady_kb": r and (r.get("rss_anon_kb") or 0) + (r.get("rss_file_kb") or 0),
               "anon_kb": r and r.get("rss_anon_kb"), "file_kb": r and r.get("rss_file_kb"), "startup": None}
        if instructions and program == "tock":
            row["startup"] = startup.tock(binaries["tock"])["startup"]
        elif instructions and program == "swift-timer" and binaries.get("swift-timer") not in (None, "none"):
            row["startup"] = startup.swift_timer(binaries["swift-timer"])["startup"]
        rows.append(row)
    for k, (name, cmd, env) in enumerate(floor_programs(binaries)):
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        m = floor_memory(cmd, env, os.path.join(work, f"floor-{k}"))
        rows.append({"program": name, "peak_kb": m.get("VmHWM"), "steady_kb": m.get("RssAnon", 0) + m.get("RssFile", 0),
                     "anon_kb": m.get("RssAnon"), "file_kb": m.get("RssFile"),
                     "startup": startup.ready_line(cmd, env)["startup"] if instructions else None})
    return rows


def find_result(results, program, condition):
    return next((r for r in results if r["program"] == program and r["condition"] == condition), None)


class Load:
    """Every core busy with stress-ng's CPU hog, bounded by a timeout."""

    def __init__(self, seconds):
        self.proc = subprocess.Popen(["stress-ng", "--cpu", "0", "--timeout", f"{int(seconds)}s", "--quiet"])
        time.sleep(1.0)

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait()


def compare(old, new, rounds, idle_seconds, out):
    """Tock against an earlier build of itself, in one sitting: rounds of
    old, new, old, new, ... so that what drifts on the machine meets both
    alike. Each round measures, old then new for each figure, the
    instructions per second of counting (callgrind), the wake-ups per
    second while counting (a run on the idle machine with the unit's
    scheduling) and the idle clock's wake-ups per minute (off, blinking
    colon, steady colon); OUT/TABLE.md gives each round, the medians and
    the ratio new/old of the medians."""
    import report
    plan = Plan(quick=False)
    sides = {"old": old, "new": new}
    work = tempfile.mkdtemp(prefix="tock-compare-")
    began = time.monotonic()
    rows = []
    for k in range(rounds):
        row = {side: {} for side in sides}
        for side, binary in sides.items():
            print(f"compare: round {k + 1}/{rounds}, {side}: instructions ...", file=sys.stderr, flush=True)
            row[side]["instructions"] = instructions("tock", plan, {"tock": binary}, os.path.join(work, str(k), side))
        for side, binary in sides.items():
            print(f"compare: round {k + 1}/{rounds}, {side}: counting ...", file=sys.stderr, flush=True)
            row[side]["run"] = Run("tock", "idle", plan, {"tock": binary}, os.path.join(work, str(k), side)).run()
        for side, binary in sides.items():
            print(f"compare: round {k + 1}/{rounds}, {side}: idle clock ...", file=sys.stderr, flush=True)
            row[side]["idle_clock"] = idle_clock(plan, {"tock": binary}, os.path.join(work, str(k), side), idle_seconds)
        rows.append(row)
    figures = []
    for name, unit, pick in compare_figures(rows[0]["old"]):
        values = {side: [pick(r[side]) for r in rows] for side in sides}
        med = {side: statistics.median(v) for side, v in values.items() if None not in v}
        ratio = med["new"] / med["old"] if len(med) == 2 and med["old"] else None
        figures.append({"figure": name, "unit": unit, "old": values["old"], "new": values["new"],
                        "old_median": med.get("old"), "new_median": med.get("new"), "ratio": ratio})
    meta = {"old": os.path.abspath(old), "new": os.path.abspath(new), "rounds": rounds,
            "idle_seconds": idle_seconds or (30 if plan.quick else 120), "count_s": plan.count_s,
            "cores": os.cpu_count(), "kernel": os.uname().release,
            "date": time.strftime("%Y-%m-%d %H:%M %Z"), "minutes": round((time.monotonic() - began) / 60, 1),
            "work": work}
    outputs.write(out, report.compare_table(meta, figures) + "\n",
            {"meta": meta, "figures": figures, "rounds": rows})
    print(f"callgrind dumps and logs in {work}", file=sys.stderr)


def compare_figures(side):
    """(figure, unit, how to read it from one side of a round); the idle
    clock's rows in the order idle_clock measures them."""
    out = [("instructions per second of counting, callgrind", "instructions/s",
            lambda s: s["instructions"]["instructions_per_s"]),
           ("wake-ups while counting", "per s", lambda s: s["run"]["counting"]["wakeups_per_s"]),
           ("wake-ups in ready, 3 s", "per s", lambda s: s["run"]["idle"]["wakeups_per_s"])]
    for i, r in enumerate(side["idle_clock"]):
        out.append((f"idle clock {r['idle']}: wake-ups", "per min",
                    lambda s, i=i: s["idle_clock"][i]["wakeups_per_min"]))
    return out


def main():
    global UNIT
    ap = argparse.ArgumentParser()
    ap.add_argument("--tock", required=True)
    ap.add_argument("--swift-timer")
    ap.add_argument("--python")
    ap.add_argument("--floor-static", help="the floor program linked as Tock is (Benchmarks/peers/Floor)")
    ap.add_argument("--floor-dynamic", help="the floor program linked as the Swift peer is")
    ap.add_argument("--floor-swift", help="the Swift floor for a count-down (Benchmarks/floor/floor.swift), linked as Tock is")
    ap.add_argument("--floor-c", help="the C floor for a count-down (Benchmarks/floor/floor.c)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--programs", help="comma-separated subset, for a focused run")
    ap.add_argument("--conditions", help="comma-separated subset, for a focused run")
    ap.add_argument("--idle-clock-only", action="store_true", help="measure only the idle clock's wake-ups per minute")
    ap.add_argument("--unit", default=UNIT, help="the unit whose scheduling Tock runs with")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each program and condition")
    ap.add_argument("--compare", metavar="OLD_TOCK", help="measure --tock against this earlier build of it, side by side")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of old and new in --compare")
    ap.add_argument("--idle-seconds", type=float, help="each idle clock measurement (default 120 s, 30 s in QUICK)")
    args = ap.parse_args()
    if args.compare:
        compare(args.compare, args.tock, args.rounds, args.idle_seconds, args.out)
        return
    if args.swift_timer is None or args.python is None:
        ap.error("--swift-timer and --python are required (none to leave a peer out)")
    plan = Plan(args.quick)
    if args.idle_clock_only:
        import report
        rows = idle_clock(plan, {"tock": args.tock}, tempfile.mkdtemp(prefix="tock-bench-"), args.idle_seconds)
        outputs.write(args.out, report.idle_clock_table(rows) + "\n", {"idle_clock": rows})
        return
    UNIT = args.unit
    if args.programs:
        plan.programs = args.programs.split(",")
    if args.conditions:
        plan.conditions = args.conditions.split(",")
    binaries = {"tock": args.tock, "swift-timer": args.swift_timer, "python": args.python,
                "floor-static": args.floor_static, "floor-dynamic": args.floor_dynamic,
                "floor-swift": args.floor_swift, "floor-c": args.floor_c}
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tock-bench-")
    results = []
    began = time.monotonic()
    for condition in plan.conditions:
        for program in plan.programs + (["tock-nice"] if condition == "load" and not plan.quick and not args.programs else []):
            for k in range(args.repeat):
                load = Load(plan.count_s + plan.idle_s + plan.flips * 0.2 + 20) if condition == "load" else None
                try:
                    print(f"bench: {program} ({condition}) ...", file=sys.stderr, flush=True)
                    results.append(Run(program, condition, plan, binaries, os.path.join(work, str(k))).run())
                finally:
                    if load:
                        load.stop()
    launches = [] if args.programs else [startups(p, plan, binaries, work, 3 if plan.quick else 20)
                                         for p in ("tock", "swift-timer", "gpiozero")]
    floors = [platform_floor(c, plan) for c in plan.conditions if c in ("idle", "load") and not args.programs]
    # Valgrind makes this the slowest part: a QUICK run leaves it out.
    counted = ["tock", "swift-timer", "swift-timer-1hz", "gpiozero"] + [f for f in ("floor-swift", "floor-c") if binaries.get(f)]
    counts = [] if args.programs or plan.quick else [instructions(p, plan, binaries, work) for p in counted]
    idle = [] if args.programs or args.conditions else idle_clock(plan, binaries, work)
    # Valgrind again: a QUICK run gives the memory only.
    prints = [] if args.programs or args.conditions else footprint(binaries, results, work, instructions=not plan.quick)
    import report
    if args.programs or args.conditions:  # a focused run: the tables only
        outputs.write(args.out, report.table(results) + "\n\nPooled over the runs:\n\n" + report.pooled_table(results) + "\n",
                {"results": results})
        return
    meta = report.machine(binaries, plan, unit_scheduling(), time.monotonic() - began)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "results": results, "floors": floors, "instructions": counts, "startups": launches,
                   "idle_clock": idle, "footprint": prints}, f)
    text = report.markdown(meta, results, plan, floors, counts, launches, idle, prints)
    with open(os.path.join(args.out, "RESULTS.md"), "w") as f:
        f.write(text)
    report.plots(results, plan, args.out, floors)
    print(report.table(results))
    print(report.floor_table(floors))
    print(report.instruction_table(counts))
    print(report.startup_table(launches))
    print(report.idle_clock_table(idle))
    print(report.footprint_table(prints))
    print(f"\nwritten: {args.out}/RESULTS.md and {args.out}/plots/*.png (logs in {work})")


if __name__ == "__main__":
    main()
