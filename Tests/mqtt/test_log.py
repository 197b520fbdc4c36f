"""The log under an MQTT flood, against a real mosquitto (docs/reliability.md,
"The log"): every kind of line a command can cause is written at most once
a minute, the latest of those held back with their count when the minute
ends, and whatever a line quotes from outside is escaped.

Loaded by test_mqtt.py's runner (`make mqtt-test`, or
`bash Tests/mqtt/run.sh -k log_flood`)."""

import json
import re
import time

import harness as h
from test_mqtt import MqttCase

# The flood's pace and length: 1,000 commands a second for 10 s.
RATE = 1000
SECONDS = 10
# The lines a timer command can cause, by kind (how a line begins).
KINDS = [("timers", re.compile(r"^timers: ")), ("rang", re.compile(r"^notice: timer .* rang")),
         ("state", re.compile(r"^state ")), ("round", re.compile(r"^round ")),
         ("refused", re.compile(r"^notice: mqtt: refused ")), ("ignored", re.compile(r"^warning: mqtt: ignored a message")),
         ("dropped", re.compile(r"^warning: mqtt: dropped a command")), ("publish", re.compile(r"^error: mqtt: cannot publish"))]
# A name with a newline, a forged journal priority and an ESC sequence.
FORGED = "A\n<3>x\x1b[2J"


def kind_of(line):
    for name, pattern in KINDS:
        if pattern.search(line):
            return name
    return None


class LogFloodTest(MqttCase):
    def test_log_flood_of_timer_commands(self):
        """1,000 timer commands a second for 10 s, a new name each time
        (adds of 1 s, each cancelled two commands later, names 7 segments
        cannot draw, malformed JSON), the first a name with a newline and an ESC. The
        log stays at one line of each kind until the minute ends, then
        each kind's latest with its count; the name is escaped."""
        b = self.broker()
        m = self.member("kitchen", b, presets=("9m",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/reply"])
        time.sleep(1.1)
        p = m.prefix
        before = len(m.log().splitlines())
        received0 = m.status()["mqtt"]["received"]
        flood = self.subscriber(b, topics=[])
        letters = "AbCdEFHJLnoPrtUy"
        payloads = [json.dumps({"cmd": "timer", "op": "add", "name": FORGED, "duration": "1m"}).encode()]
        def name(i):
            return letters[i % 16] + letters[i // 16 % 16] + letters[i // 256 % 16]
        for i in range(1, RATE * SECONDS):
            k = i % 6
            if k in (0, 1):  # two adds, each cancelled two commands later: the list changes each time
                payloads.append(json.dumps({"cmd": "timer", "op": "add", "name": name(i), "duration": "1s"}).encode())
            elif k in (2, 4):
                payloads.append(json.dumps({"cmd": "timer", "op": "cancel", "name": name(i - 2 - k // 4)}).encode())
            elif k == 3:
                payloads.append(json.dumps({"cmd": "timer", "op": "add", "name": "k" + name(i), "duration": "1m"}).encode())
            else:
                payloads.append(b'{"cmd":"timer","op":"boom' + str(i).encode() + b'"}')
        started = time.monotonic()
        for n, payload in enumerate(payloads):
            flood.client.publish(f"{p}/cmd", payload, qos=0)
            if n % 100 == 99:  # paced: 100 every 0.1 s
                ahead = started + (n + 1) / RATE - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
        sent_s = time.monotonic() - started
        h.wait_until(lambda: m.status()["mqtt"]["received"] - received0 >= len(payloads) * 0.95, 30,
                     "tock to receive the flood", detail=m.describe)
        received = m.status()["mqtt"]["received"] - received0
        time.sleep(1)
        during = m.log().splitlines()[before:]
        by_kind = {}
        for line in during:
            k = kind_of(line)
            by_kind[k] = by_kind.get(k, 0) + 1
        print(f"  log flood: {len(payloads)} commands in {sent_s:.1f} s ({received} received); "
              f"{len(during)} log lines in the flood: {by_kind}", flush=True)
        for k, n in by_kind.items():
            self.assertLessEqual(n, 1, f"{n} lines of kind {k} within the minute:\n" + "\n".join(during[:20]))
        self.assertLessEqual(len(during), len(KINDS) + 2, "\n".join(during[:20]))
        # The forged name: one line, escaped (no line of its own, no ESC).
        self.assertTrue(any(r'"A\n<3>x\e[2J" cannot be drawn' in line for line in during), "\n".join(during))
        self.assertFalse(any(line.startswith("<3>x") or "\x1b" in line for line in m.log().splitlines()[before:]))
        # The minute ends: each kind's latest, with the count held back.
        h.wait_until(lambda: sum("held back in the last minute" in line for line in m.log().splitlines()[before:]) >= 3,
                     75 - (time.monotonic() - started), "the held-back counts a minute after the flood", detail=m.describe)
        time.sleep(1)
        after = m.log().splitlines()[before:]
        summaries = [line for line in after if "held back in the last minute" in line]
        held = sum(int(re.search(r"the latest of (\d+) such", line).group(1)) for line in summaries)
        print(f"  log flood: {len(after)} lines a minute on, {len(summaries)} of them with a count "
              f"({held} lines held back in all)", flush=True)
        self.assertLessEqual(len(after), 2 * (len(KINDS) + 2), "\n".join(after))
        self.assertGreaterEqual(held, 1000, "\n".join(summaries))
        self.assertEqual(m.link(), "connected")
