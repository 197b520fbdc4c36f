"""Figures from the event logs the three programs write (pure: no I/O, no
clocks), so the same definitions apply to all of them and a unit test can
check each one (test_analysis.py).

Every log line is `KIND T ...` with CLOCK_MONOTONIC nanoseconds:
  ready T | wake DEADLINE T | frame T TEXT | buzzer T on|off | edge ...
"""
import math
import re


def parse_log(text):
    """The log's events as dicts: kind, t (ns), and the rest."""
    events = []
    for line in text.splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 2:
            continue
        kind = parts[0]
        if kind == "wake":
            due, woke = parts[1], parts[2]
            events.append({"kind": "wake", "due": int(due), "t": int(woke)})
        elif kind == "frame":
            events.append({"kind": "frame", "t": int(parts[1]), "text": parts[2] if len(parts) > 2 else ""})
        elif kind == "buzzer":
            events.append({"kind": "buzzer", "t": int(parts[1]), "on": parts[2] == "on"})
        elif kind == "ready":
            events.append({"kind": "ready", "t": int(parts[1])})
        elif kind == "edge":
            events.append({"kind": "edge", "t": int(parts[2].split()[-1])})
    return events


def percentile(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    s = sorted(values)
    k = max(0, math.ceil(p / 100 * len(s)) - 1)
    return s[k]


# How each program shows a count-down value, so that the ideal instant of
# each change of the display can be computed.
class Display:
    """`resolution` in seconds; `rounds_up`: Tock shows a count-down rounded
    up (it reads 00:20 until a whole second has passed); the peers truncate."""

    def __init__(self, pattern, resolution, rounds_up):
        self.pattern = re.compile(pattern)
        self.resolution = resolution
        self.rounds_up = rounds_up

    def value(self, text):
        """Seconds shown, or None for a text that is not a count."""
        m = self.pattern.fullmatch(text.strip())
        if not m:
            return None
        g = m.groups()
        v = int(g[0]) * 60 + int(g[1])
        if len(g) > 2:
            v += int(g[2]) / 10
        return v

    def text_for(self, seconds):
        """What a resting display shows for a whole number of seconds."""
        base = "%02d:%02d" % (seconds // 60, seconds % 60)
        return base + ".0" if self.resolution < 1 else base

    def appears_at(self, value, duration):
        """Seconds after the start at which `value` first shows, ideally."""
        if self.rounds_up:
            return duration - value
        return duration - value - self.resolution


DISPLAYS = {
    "tock": Display(r"(\d\d):(\d\d)", 1, True),
    "swift-timer": Display(r"(\d\d):(\d\d)\.(\d)", 0.1, False),
    "gpiozero": Display(r"(\d\d):(\d\d)", 1, False),
}


def display_for(program):
    return DISPLAYS["tock" if program.startswith("tock") else program]


def count_errors(events, display, start_ns, duration_s):
    """(seconds since start, error ms) at each change of the shown count
    after the start, and at the alarm: the instant it happened minus the
    instant it should have for a count started at `start_ns`."""
    points = []
    last = None
    for e in events:
        if e["kind"] == "frame":
            v = display.value(e["text"])
            if v is None or v == last:
                continue
            if last is not None and e["t"] >= start_ns:
                ideal = start_ns + display.appears_at(v, duration_s) * 1e9
                points.append(((e["t"] - start_ns) / 1e9, (e["t"] - ideal) / 1e6))
            last = v
        elif e["kind"] == "buzzer" and e["on"] and e["t"] >= start_ns:
            ideal = start_ns + duration_s * 1e9
            points.append(((e["t"] - start_ns) / 1e9, (e["t"] - ideal) / 1e6))
            break
    return points


def alarm_error_ms(events, start_ns, duration_s):
    """The first buzzer-on after the start minus start + duration, in ms."""
    for e in events:
        if e["kind"] == "buzzer" and e["on"] and e["t"] >= start_ns:
            return (e["t"] - start_ns - duration_s * 1e9) / 1e6
    return None


def lateness_us(events, begin_ns, end_ns):
    """Wake minus its scheduled instant (µs), for deadlines in [begin, end]."""
    return [(e["t"] - e["due"]) / 1e3 for e in events if e["kind"] == "wake" and begin_ns <= e["due"] <= end_ns]


def input_latencies_ms(events, flips, display, preset_s):
    """For each injected switch flip (timestamp ns, 1 = Up), the first frame
    after it showing the value the flip asks for (0 for Up, the preset for
    Down), before the next flip: frame instant minus the edge's timestamp."""
    frames = [e for e in events if e["kind"] == "frame"]
    out = []
    for i, (ts, up) in enumerate(flips):
        until = flips[i + 1][0] if i + 1 < len(flips) else float("inf")
        want = display.text_for(0 if up else preset_s)
        hit = next((f["t"] for f in frames if ts <= f["t"] < until and f["text"].strip() == want), None)
        if hit is not None:
            out.append((hit - ts) / 1e6)
    return out


def display_changes(events, begin_ns, end_ns):
    """Writes that changed the shown text in [begin, end]."""
    n, last = 0, None
    for e in events:
        if e["kind"] == "frame":
            if begin_ns <= e["t"] <= end_ns and e["text"] != last:
                n += 1
            last = e["text"]
    return n


def counter_rates(before, after):
    """CPU seconds per hour and wake-ups per second between two samples of
    the process's counters (schedstat ns, voluntary context switches)."""
    seconds = (after["t"] - before["t"]) / 1e9
    return {
        "cpu_s_per_h": (after["cpu_ns"] - before["cpu_ns"]) / 1e9 / seconds * 3600,
        "wakeups_per_s": (after["voluntary"] - before["voluntary"]) / seconds,
    }
