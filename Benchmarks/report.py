"""The table, RESULTS.md and the plots, from the figures bench.py measured."""
import os
import platform
import subprocess

import analysis

DEBOUNCE_MS = 20  # Tock's input.debounce in the benchmark (its default)

NAMES = {
    "tock": "Tock (service scheduling)",
    "tock-untuned": "Tock (no scheduling settings)",
    "tock-nice": "Tock (Nice=-10 instead)",
    "swift-timer": "Swift Foundation Timer peer",
    "swift-timer-1hz": "Swift Foundation Timer peer, ticking once a second (the fairest for MM:SS)",
    "floor-swift": "floor: Swift, the standard library only (Benchmarks/floor)",
    "floor-c": "floor: C (Benchmarks/floor)",
    "gpiozero": "Python gpiozero peer",
}
CONDITIONS = {
    "idle": "machine idle",
    "load": "all cores busy (stress-ng)",
    "stop": "SIGSTOP 2 s halfway",
}


def _run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def machine(binaries, plan, scheduling, seconds):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown")
    mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
    osname = next((l.split("=", 1)[1].strip().strip('"') for l in open("/etc/os-release") if l.startswith("PRETTY_NAME")), "")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return {
        "cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem / 1048576, 1), "os": osname,
        "kernel": platform.release(),
        "swift": _run(["swift", "--version"]).splitlines()[0] if _run(["swift", "--version"]) else "unknown",
        "python": _run([binaries["python"], "--version"]),
        "gpiozero": _run([binaries["python"], "-c", "import importlib.metadata as m; print(m.version('gpiozero'))"]),
        "stress_ng": _run(["stress-ng", "--version"]),
        "tock": open(os.path.join(root, "deploy", "VERSION")).read().strip() + " (" + _run(["git", "-C", root, "describe", "--always", "--dirty"]) + ")",
        "scheduling": scheduling, "quick": plan.quick, "count_s": plan.count_s, "idle_s": plan.idle_s,
        "flips": plan.flips, "minutes": round(seconds / 60, 1),
    }


def _f(v, digits=1):
    if v is None:
        return "none"
    return f"{v:,.{digits}f}"


def summary(r):
    late = r["lateness_us"]
    inp = r["input_ms"]
    return {
        "alarm": r["alarm_error_ms"],
        "late50": analysis.percentile(late, 50) if late else None,
        "late99": analysis.percentile(late, 99) if late else None,
        "latemax": max(late) if late else None,
        "cpu_count": r["counting"]["cpu_s_per_h"],
        "cpu_idle": r["idle"]["cpu_s_per_h"],
        "wake_count": r["counting"]["wakeups_per_s"],
        "wake_idle": r["idle"]["wakeups_per_s"],
        "changes": r["display_changes_per_s"],
        "rss": r["peak_rss_kb"] / 1024 if r.get("peak_rss_kb") else None,
        "anon": r["rss_anon_kb"] / 1024 if r.get("rss_anon_kb") else None,
        "file": r["rss_file_kb"] / 1024 if r.get("rss_file_kb") else None,
        "in50": analysis.percentile(inp, 50) if inp else None,
        "in99": analysis.percentile(inp, 99) if inp else None,
        "inputs": f"{len(inp)}/{r['flips']}",
        "debounce": DEBOUNCE_MS if r["program"].startswith("tock") else 0,
        "in99_after": (analysis.percentile(inp, 99) - (DEBOUNCE_MS if r["program"].startswith("tock") else 0)) if inp else None,
        "startup": r["startup_ms"],
    }


COLUMNS = [
    ("alarm error ms", "alarm", 2), ("late p50 µs", "late50", 0), ("late p99 µs", "late99", 0),
    ("late max µs", "latemax", 0), ("CPU s/h counting", "cpu_count", 2), ("CPU s/h idle", "cpu_idle", 2),
    ("wake-ups/s counting", "wake_count", 1), ("wake-ups/s idle", "wake_idle", 1), ("display changes/s", "changes", 1),
    ("peak RSS MB", "rss", 1), ("RSS at the end: anonymous MB", "anon", 1), ("file-backed MB", "file", 1), ("input p50 ms", "in50", 2), ("input p99 ms", "in99", 2), ("of it debounce ms", "debounce", 0),
    ("input p99 − debounce ms", "in99_after", 2), ("inputs seen", "inputs", None),
    ("start-up ms", "startup", 1),
]


def table(results):
    head = "| program | condition | " + " | ".join(c[0] for c in COLUMNS) + " |"
    rows = [head, "|" + "---|" * (len(COLUMNS) + 2)]
    for r in results:
        s = summary(r)
        cells = [s[k] if d is None else _f(s[k], d) for _, k, d in COLUMNS]
        rows.append(f"| {NAMES[r['program']]} | {CONDITIONS[r['condition']]} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def find(results, program, condition):
    return next(summary(r) for r in results if r["program"] == program and r["condition"] == condition)


def headline(results):
    """Ratios measured side by side in this run (idle machine unless said)."""
    t, s, p = (find(results, x, "idle") for x in ("tock", "swift-timer", "gpiozero"))
    worst = lambda prog: max(abs(find(results, prog, c)["alarm"] or 0) for c in CONDITIONS)
    return {
        "cpu_vs_swift": s["cpu_count"] / t["cpu_count"] if t["cpu_count"] else None,
        "cpu_vs_python": p["cpu_count"] / t["cpu_count"] if t["cpu_count"] else None,
        "wake_tock": t["wake_count"], "wake_swift": s["wake_count"], "wake_python": p["wake_count"],
        "alarm_tock_worst": worst("tock"), "alarm_swift_worst": worst("swift-timer"), "alarm_python_worst": worst("gpiozero"),
        "rss_tock": t["rss"], "rss_swift": s["rss"], "rss_python": p["rss"],
        "anon_tock": t["anon"], "anon_swift": s["anon"], "anon_python": p["anon"],
    }


def pooled_table(results):
    """Each program and condition over all its runs: the samples pooled."""
    rows = ["| program | condition | runs | wake-ups | late p50 µs | late p99 µs | late max µs | inputs | input p99 − debounce ms | input max − debounce ms | worst alarm error ms |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    keys = []
    for r in results:
        if (r["program"], r["condition"]) not in keys:
            keys.append((r["program"], r["condition"]))
    for prog, cond in keys:
        runs = [r for r in results if r["program"] == prog and r["condition"] == cond]
        late = [x for r in runs for x in r["lateness_us"]]
        inp = [x for r in runs for x in r["input_ms"]]
        d = DEBOUNCE_MS if prog.startswith("tock") else 0
        alarm = max(abs(r["alarm_error_ms"]) for r in runs if r["alarm_error_ms"] is not None)
        rows.append(f"| {NAMES[prog]} | {CONDITIONS[cond]} | {len(runs)} | {len(late)} | {_f(analysis.percentile(late, 50), 0)} | "
                    f"{_f(analysis.percentile(late, 99), 0)} | {_f(max(late), 0)} | {len(inp)} | {_f(analysis.percentile(inp, 99) - d, 2)} | "
                    f"{_f(max(inp) - d, 2)} | {_f(alarm, 2)} |")
    return "\n".join(rows)


def floor_table(floors):
    rows = ["| the machine's floor (cyclictest, SCHED_FIFO 1) | samples | late p50 µs | late p99 µs | late max µs |", "|---|---|---|---|---|"]
    for f in floors:
        v = f["lateness_us"]
        if v:
            rows.append(f"| {CONDITIONS[f['condition']]} | {len(v)} | {_f(analysis.percentile(v, 50), 0)} | "
                        f"{_f(analysis.percentile(v, 99), 0)} | {_f(max(v), 0)} |")
    return "\n".join(rows)


def instruction_table(counts):
    if not counts:
        return "(instruction counts: left out of a QUICK run)"
    tock = next((c["instructions_per_s"] for c in counts if c["program"] == "tock"), None)
    rows = ["| program | user-space instructions per second of counting (callgrind) | × Tock's |", "|---|---|---|"]
    for c in counts:
        v = c["instructions_per_s"]
        ratio = (_f(v / tock, 0) if v >= tock else _f(v / tock, 4)) if v and tock else "none"
        rows.append(f"| {NAMES[c['program']]} | {_f(v, 0)} | {ratio} |")
    return "\n".join(rows)


def startup_table(launches):
    rows = ["| program | launches | start-up median ms | max ms |", "|---|---|---|---|"]
    for l in launches:
        v = l["startup_ms"]
        rows.append(f"| {NAMES[l['program']]} | {len(v)} | {_f(analysis.percentile(v, 50))} | {_f(max(v))} |")
    return "\n".join(rows)


def targets(results, counts, launches):
    """Each target of the benchmark with what this run measured."""
    t = {c: find(results, "tock", c) for c in CONDITIONS}
    swift = find(results, "swift-timer", "idle")
    alarm = max(abs(t[c]["alarm"]) for c in CONDITIONS if t[c]["alarm"] is not None)
    ins = {c["program"]: c["instructions_per_s"] for c in counts}
    ins.setdefault("tock", None)
    cpu_ratio = swift["cpu_count"] / t["idle"]["cpu_count"] if t["idle"]["cpu_count"] else None
    ins_ratio = ins["swift-timer"] / ins["tock"] if ins.get("tock") and ins.get("swift-timer") else None
    worst = lambda k: max(t[c][k] for c in CONDITIONS if t[c][k] is not None)
    tock_launch = next(l["startup_ms"] for l in launches if l["program"] == "tock")
    boot = analysis.percentile(tock_launch, 50)
    rows = [
        ("alarm error within 1 ms in all three conditions", f"worst {_f(alarm, 2)} ms", alarm < 1),
        # In the stop condition the stop itself is one more voluntary
        # context switch (the task sleeps stopped), not a timer wake-up.
        ("wake-ups/s while counting MM:SS at most the display's changes/s",
         " · ".join(f"{c}: {_f(t[c]['wake_count'], 2)} vs {_f(t[c]['changes'], 2)}" for c in CONDITIONS)
         + " (stopping the process counts as one switch more)",
         all(t[c]["wake_count"] <= t[c]["changes"] + 0.01 for c in ("idle", "load"))),
        ("no wake-ups while idle", " · ".join(f"{c}: {_f(t[c]['wake_idle'], 2)}/s" for c in CONDITIONS),
         all(t[c]["wake_idle"] == 0 for c in CONDITIONS)),
        ("CPU per hour of counting at least 10× below the Swift peer's",
         f"{_f(cpu_ratio, 1)}× in CPU time (idle machine); {_f(ins_ratio, 0)}× in instructions", (cpu_ratio or 0) >= 10),
        ("peak RSS under 10 MB", f"{_f(worst('rss'))} MB, of which {_f(worst('anon'))} MB anonymous at the end", worst("rss") < 10),
        ("input latency p99 under 1 ms (beyond the 20 ms debounce)",
         " · ".join(f"{c}: {_f(t[c]['in99_after'], 2)} ms" for c in CONDITIONS), worst("in99_after") < 1),
        ("start-up to ready under 100 ms", f"median {_f(boot)} ms over {len(tock_launch)} launches (max {_f(max(tock_launch))} ms)",
         boot < 100),
    ]
    out = ["| target | measured (Tock, service scheduling) | met |", "|---|---|---|"]
    for name, measured, met in rows:
        out.append(f"| {name} | {measured} | {'yes' if met else '**no**, see [README.md](README.md#where-a-target-is-missed)'} |")
    return "\n".join(out)


def idle_clock_table(rows):
    if not rows:
        return ""
    out = ["| idle display | wake-ups per minute | CPU ms per minute | measured over |", "|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['idle']} | {r['wakeups_per_min']} | {r['cpu_ms_per_min']} | {r['seconds']} s |")
    return "\n".join(out)


def footprint_table(rows):
    """Start-up instructions and resident memory beside the floors
    (bench.py footprint)."""
    if not rows:
        return ""
    mb = lambda kb: _f(kb / 1024) if kb else "none"
    out = ["| program | instructions to ready (callgrind) | peak RSS MB (VmHWM) | steady RSS MB | of it anonymous MB | file-backed MB |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        ins = f"{r['startup'] / 1e6:.1f} M" if r.get("startup") else "not measured"
        out.append(f"| {NAMES.get(r['program'], r['program'])} | {ins} | {mb(r['peak_kb'])} | {mb(r['steady_kb'])} | "
                   f"{mb(r['anon_kb'])} | {mb(r['file_kb'])} |")
    return "\n".join(out)


def compare_table(meta, figures):
    """bench.py --compare: each figure per round, old and new, the medians
    and new/old of the medians."""
    def value(v):
        return "none" if v is None else f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.2f}"
    out = [f"# Tock against an earlier build of itself\n",
           f"- old: `{meta['old']}`", f"- new: `{meta['new']}`",
           f"- {meta['rounds']} round{'s' if meta['rounds'] != 1 else ''} of old then new for each figure, in one run of "
           f"{meta['minutes']} minutes on {meta['date']} ({meta['cores']} cores, Linux {meta['kernel']}); "
           f"counting: a {meta['count_s']} s count-down; the idle clock: {meta['idle_seconds']:g} s each\n",
           "| figure | old per round | new per round | old median | new median | new/old |",
           "|---|---|---|---|---|---|"]
    for f in figures:
        ratio = "—" if f["ratio"] is None else f"{f['ratio']:.3f}"
        out.append(f"| {f['figure']} ({f['unit']}) | {' · '.join(value(v) for v in f['old'])} | "
                   f"{' · '.join(value(v) for v in f['new'])} | {value(f['old_median'])} | "
                   f"{value(f['new_median'])} | {ratio} |")
    return "\n".join(out)


def markdown(meta, results, plan, floors, counts, launches, idle=(), footprint=()):
    h = headline(results)
    ins = {c["program"]: c["instructions_per_s"] for c in counts}
    ratio = lambda p: _f(ins[p] / ins["tock"], 0) if ins.get(p) and ins.get("tock") else "none"
    sched = ", ".join(f"{k}={v}" for k, v in meta["scheduling"].items()) or "none"
    has_untuned = any(r["program"] == "tock-untuned" for r in results)
    untuned = find(results, "tock-untuned", "load") if has_untuned else None
    nice = find(results, "tock-nice", "load") if has_untuned else None
    tuned = find(results, "tock", "load")
    lines = [
        "# Benchmark results",
        "",
        f"Written by `make bench`{' QUICK=1 (a short run: do not quote)' if meta['quick'] else ''} in {meta['minutes']} min. "
        "Each program ran alone, one after another, under the same conditions; see [README.md](README.md) for how.",
        "",
        "## Machine and versions",
        "",
        f"- {meta['cpu']}, {meta['cores']} cores, {meta['memory_gib']} GiB; {meta['os']}; kernel {meta['kernel']}",
        f"- Tock {meta['tock']}, release build; {meta['swift']}",
        f"- {meta['python']}, gpiozero {meta['gpiozero']}; {meta['stress_ng']}",
        f"- Tock's scheduling, read from deploy/tock.service: {sched}",
        f"- a {meta['count_s']} s count-down per run; {meta['idle_s']} s idle before it; {meta['flips']} switch flips for input latency",
        "",
        "## Headline",
        "",
        f"- CPU while counting (idle machine): the Swift peer uses **{_f(h['cpu_vs_swift'], 0)}×** Tock's, the Python peer **{_f(h['cpu_vs_python'], 0)}×**.",
        f"- Instructions per second of counting (callgrind, immune to the machine's noise): the Swift peer **{ratio('swift-timer')}×** Tock's, the Python peer **{ratio('gpiozero')}×**.",
        f"- Wake-ups while counting MM:SS: Tock {_f(h['wake_tock'], 1)}/s, the Swift peer {_f(h['wake_swift'], 1)}/s, the Python peer {_f(h['wake_python'], 1)}/s.",
        f"- Worst alarm error over the three conditions: Tock {_f(h['alarm_tock_worst'], 2)} ms, the Swift peer {_f(h['alarm_swift_worst'], 0)} ms, the Python peer {_f(h['alarm_python_worst'], 0)} ms.",
        f"- Peak RSS: Tock {_f(h['rss_tock'])} MB, the Swift peer {_f(h['rss_swift'])} MB, the Python peer {_f(h['rss_python'])} MB. "
        f"Anonymous memory at the end of the run (each program's own; the rest of its RSS is its files, which the kernel may drop and read again): "
        f"Tock {_f(h['anon_tock'])} MB, the Swift peer {_f(h['anon_swift'])} MB, the Python peer {_f(h['anon_python'])} MB.",
        "",
        "## Targets",
        "",
        targets(results, counts, launches),
        "",
        "## All figures",
        "",
        table(results),
        "",
        "Instructions, counted rather than timed (the same binary and inputs give the same count whatever the machine is doing):",
        "",
        instruction_table(counts),
        "",
        "The machine's own wake-up lateness, measured the same way in the same run: no program can wake earlier than this.",
        "",
        floor_table(floors),
        "",
        "Start-up, launched again and again on the idle machine (the table's column is the single launch of each run):",
        "",
        startup_table(launches),
        "",
        "![wake lateness](plots/lateness.png)",
        "",
        "![count error](plots/count-error.png)",
        "",
        "## Scheduling under load",
        "",
        (f"With every core busy, Tock without scheduling settings woke with lateness p50 {_f(untuned['late50'], 0)} µs, "
         f"p99 {_f(untuned['late99'], 0)} µs, max {_f(untuned['latemax'], 0)} µs, and its alarm was {_f(untuned['alarm'], 2)} ms off; "
         f"with the unit's settings ({sched}) p50 {_f(tuned['late50'], 0)} µs, p99 {_f(tuned['late99'], 0)} µs, "
         f"max {_f(tuned['latemax'], 0)} µs, alarm {_f(tuned['alarm'], 2)} ms; with Nice=-10 instead p50 {_f(nice['late50'], 0)} µs, "
         f"p99 {_f(nice['late99'], 0)} µs, alarm {_f(nice['alarm'], 2)} ms. Input latency beyond the debounce, p99: "
         f"{_f(untuned['in99_after'], 2)} ms untuned, {_f(nice['in99_after'], 2)} ms with Nice=-10, {_f(tuned['in99_after'], 2)} ms with the unit's settings. "
         "See [README.md](README.md#scheduling) for the reasoning."
         if untuned else "A QUICK run leaves out Tock without scheduling settings."),
        "",
    ]
    if footprint:
        lines += ["## Start-up and footprint", "",
                  "Instructions from exec to ready (callgrind: `tock run` until READY=1, the others until their \"ready\" line) "
                  "and resident memory: the peak (VmHWM) and the steady set (at the end of the idle-condition run; the floors 3 s "
                  "after ready). Each floor is the least a program built that way costs: it says ready and waits. "
                  "See [README.md](README.md#start-up-and-footprint).", "",
                  footprint_table(footprint), ""]
    if idle:
        lines += ["## The idle clock", "",
                  "`tock run` idle in ready, its voluntary context switches (wake-ups) counted while the idle clock shows "
                  "(or with it off); docs/alarms.md's virtual-time figures are 120, 1 and 0 per minute.", "",
                  idle_clock_table(idle), ""]
    return "\n".join(lines)


def _legend(axes, where):
    """One legend, on the first panel, for the lines of every panel."""
    seen = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(label, h)
    axes[0].legend(list(seen.values()), list(seen.keys()), loc=where, fontsize=8)


def plots(results, plan, out, floors=()):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    colours = {"tock": "tab:green", "tock-untuned": "tab:olive", "tock-nice": "tab:cyan", "swift-timer": "tab:orange", "gpiozero": "tab:blue"}

    def figure(name, title, ylabel, legend_at, panel):
        """One panel per condition, drawn by panel(ax, condition)."""
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), sharey=True)
        for ax, cond in zip(axes, CONDITIONS):
            panel(ax, cond)
            ax.set_title(CONDITIONS[cond])
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel(ylabel)
        _legend(axes, legend_at)
        fig.suptitle(title)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "plots", name), dpi=110)
        plt.close(fig)

    def cdf(ax, values, **style):
        v = sorted(max(x, 0.1) for x in values)
        ax.step(v, [(i + 1) / len(v) for i in range(len(v))], where="post", **style)

    def lateness(ax, cond):
        for r in results:
            if r["condition"] == cond and r["lateness_us"]:
                cdf(ax, r["lateness_us"], color=colours[r["program"]], label=NAMES[r["program"]])
        for f in floors:
            if f["condition"] == cond and f["lateness_us"]:
                cdf(ax, f["lateness_us"], color="grey", linestyle="--", label="the machine's floor (cyclictest)")
        ax.set_xscale("log")
        ax.set_xlabel("wake lateness (µs, log)")

    def count_error(ax, cond):
        for r in results:
            if r["condition"] == cond and r["count_errors"]:
                xs, ys = zip(*r["count_errors"])
                ax.plot(xs, ys, ".-", color=colours[r["program"]], label=NAMES[r["program"]], markersize=3, linewidth=1)
        ax.set_yscale("symlog", linthresh=1)
        ax.set_xlabel(f"seconds into the {plan.count_s} s count-down")

    figure("lateness.png", "Wake-up lateness while counting: actual wake minus scheduled instant (CDF)",
           "fraction of wake-ups at most this late", "lower right", lateness)
    figure("count-error.png", "Count error over the count-down: each change of the shown value, and the alarm (last point)",
           "display change or alarm: actual − ideal (ms)", "upper left", count_error)

if __name__ == "__main__":
    # Re-render RESULTS.md and the plots from a run's results.json (after a
    # change to this file), without measuring again: report.py OUT-DIR
    import json
    import sys
    from types import SimpleNamespace

    out = sys.argv[1]
    data = json.load(open(os.path.join(out, "results.json")))
    meta = data["meta"]
    plan = SimpleNamespace(quick=meta["quick"], count_s=meta["count_s"], idle_s=meta["idle_s"], flips=meta["flips"])
    with open(os.path.join(out, "RESULTS.md"), "w") as f:
        f.write(markdown(meta, data["results"], plan, data["floors"], data["instructions"], data["startups"], data.get("idle_clock", ())))
    plots(data["results"], plan, out, data["floors"])
