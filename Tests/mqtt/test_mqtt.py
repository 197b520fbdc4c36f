"""Integration tests of tock's MQTT link against real mosquitto brokers.

Each test starts its own broker(s) and `tock run --backend mock` members in
a temporary directory and checks one part of the MQTT link as docs/mqtt.md
(Home Assistant, MQTT and fleets) describes it: the retained state topics,
commands on P/cmd, Home Assistant discovery, faults of the broker and the
network, and the fleet group.

    bash Tests/mqtt/run.sh [TOCK_BIN]
    /usr/bin/python3 Tests/mqtt/test_mqtt.py [TOCK_BIN] [-k PATTERN]

P below is a member's topic prefix (tock/<client_id>).
"""

import argparse
import atexit
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import unittest
from pathlib import Path

import jsonschema

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness as h  # noqa: E402

SCHEMA_PATH = Path(__file__).resolve().parent / "ha-discovery.schema.json"
S = 1_000_000_000  # one second in nanoseconds
MS = 1_000_000

STATE_TOPICS = ["availability", "state", "display", "mode", "preset", "buzzer"]
DISCOVERY_OBJECTS = [("sensor", "state"), ("sensor", "display"), ("sensor", "remaining"),
                     ("button", "start"), ("button", "stop"), ("button", "reset"),
                     ("select", "mode"), ("text", "preset"), ("sensor", "direction"), ("sensor", "switch"),
                     ("sensor", "next_alarm"), ("binary_sensor", "clock_synchronised"), ("sensor", "finishes_at"), ("button", "snooze"), ("button", "dismiss"),
                     ("event", "events"), ("number", "brightness"), ("switch", "night"), ("time", "night_from"),
                     ("time", "night_to"), ("number", "night_brightness"),
                     ("sensor", "timers"), ("sensor", "next_timer"), ("event", "timer_finished"), ("text", "add_timer"),
                     ("select", "up_down"), ("button", "silence"), ("select", "timer"), ("button", "timer_pause"),
                     ("button", "timer_resume"), ("button", "timer_cancel"), ("update", "update"),
                     ("button", "add_minute"), ("text", "add_time"), ("button", "timer_add_minute"),
                     ("device_automation", "count_finished"), ("device_automation", "alarm_ringing"),
                     ("device_automation", "alarm_dismissed"), ("device_automation", "phase_changed"),
                     ("device_automation", "timer_finished")]
MODES = ["timer", "stopwatch", "countdown", "interval"]
# The line for a lost link, as docs/mqtt.md writes it: `mqtt: connection lost
# (...) to HOST:PORT; retrying in Ns`; one assertion
# (test_broker_killed_and_restarted_mid_count) checks the wording.
LOST = re.compile(r"mqtt: connection lost")
LOST_WORDING = re.compile(r"mqtt: connection lost \(.*\) to \S+(; .*)?; retrying in [0-9]+ ?s")


def clock_text(seconds):
    """The display text of a whole number of seconds (mm:ss)."""
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def whole_seconds_since(t_ns):
    """Seconds of counting surely behind us (a frame due just now may still be on its way)."""
    return max(0, int((h.mono_ns() - t_ns) / S - 0.2))


def lost_lines(member):
    return [line for line in member.log().splitlines() if LOST.search(line)]


def changes(frames):
    """The frames whose text differs from the one before: the display changes."""
    out, last = [], None
    for t, text in frames:
        if text != last:
            out.append((t, text))
        last = text
    return out


_tock_checked = {}
# Temporary directories of finished tests, removed after their logs were shown.
LEFTOVERS = []


def remove_leftovers():
    while LEFTOVERS:
        shutil.rmtree(LEFTOVERS.pop(), True)


atexit.register(remove_leftovers)


def require_tock_mqtt():
    """Fail (once per run, with the reason) when tock is missing or does not
    accept an mqtt: section yet."""
    if "error" not in _tock_checked:
        error = None
        if not os.access(h.TOCK, os.X_OK):
            error = f"no tock binary at {h.TOCK} (build it with `swift build --product tock`, or pass its path)"
        else:
            d = tempfile.mkdtemp(prefix="tock-mqtt-check-")
            try:
                c = Path(d) / "c.yaml"
                c.write_text('mode: timer\nmqtt:\n  host: "127.0.0.1"\n  client_id: "check"\n')
                p = h.run([h.TOCK, "config", "check", str(c)], check=False)
                if p.returncode != 0:
                    error = f"{h.TOCK} does not accept an mqtt: section:\n{p.stdout}"
            finally:
                shutil.rmtree(d, True)
        _tock_checked["error"] = error
    if _tock_checked["error"]:
        raise AssertionError(_tock_checked["error"])


class MqttCase(unittest.TestCase):
    """Per test: a temporary directory, and the brokers, members,
    subscribers, proxies and namespaces it made, all ended afterwards."""

    def setUp(self):
        h.ARTIFACTS.clear()
        require_tock_mqtt()
        self.tmp = tempfile.mkdtemp(prefix="tock-mqtt-")
        self.addCleanup(self._remove_tmp)

    def _remove_tmp(self):
        # Removed by the runner once it has shown the logs of a failure.
        if not os.environ.get("TOCK_MQTT_KEEP"):
            LEFTOVERS.append(self.tmp)

    def broker(self, start=True, **kw):
        b = h.Broker(self.tmp, **kw)
        self.addCleanup(b.close)
        return b.start() if start else b

    def member(self, name, broker=None, start=True, presets=("10s",), mqtt=None, netns=None, env=None, **over):
        """A member on `broker` with client_id `name`; `over` changes mqtt keys."""
        section = mqtt if mqtt is not None else h.mqtt_section(broker, name, **over)
        m = h.Member(self.tmp, name, mqtt=section, presets=presets, netns=netns, env=env)
        self.addCleanup(m.close)
        return m.start() if start else m

    def subscriber(self, broker, topics=("#",), **kw):
        s = h.Subscriber(broker, topics=topics, **kw)
        self.addCleanup(s.close)
        return s

    # -- checks shared by several tests

    def start_on_socket(self, member):
        """Press Start on the control socket; returns (t0, t1, reply): the
        count started between CLOCK_MONOTONIC t0 and t1."""
        t0 = h.mono_ns()
        reply = member.request({"cmd": "start"})
        t1 = h.mono_ns()
        self.assertTrue(reply.get("ok"), reply)
        self.assertEqual(reply.get("state"), "running", reply)
        return t0, t1, reply

    def assert_ticks(self, member, t0, t1, preset_s, upto=None, tol_ms=100):
        """The count started between t0 and t1 shows every second in order,
        none skipped, each at its time (within tol_ms): from the timing log.
        `upto` limits the check to the frames up to that many seconds in."""
        n_frames = preset_s if upto is None else min(preset_s, upto)
        frames = [f for f in member.frames(after=t0) if f[1] != clock_text(preset_s)]
        got = [text for _, text in frames[:n_frames]]
        want = [clock_text(preset_s - k) for k in range(1, n_frames + 1)]
        self.assertEqual(got, want, f"display sequence of {member.name} after start (timing log)")
        late = []
        for k, (t, text) in enumerate(frames[:n_frames], start=1):
            lo, hi = t0 + k * S - tol_ms * MS, t1 + k * S + tol_ms * MS
            if lo <= t <= hi or (t > hi and self.machine_stalled(t0 + k * S, t, t - hi)):
                continue
            late.append(f"{text} at start+{(t - t0) / MS:.1f} ms (due {k * 1000} ms)")
        self.assertEqual(late, [], f"frames of {member.name} off their second by more than {tol_ms} ms")

    def machine_stalled(self, due_ns, at_ns, beyond_ns):
        """Whether the bystander (harness.Bystander) was held up at least
        beyond_ns over [due_ns, at_ns]: then a late frame or ring is the
        machine's doing, printed, and not counted against tock."""
        stall = h.BYSTANDER.excuse(due_ns, at_ns, beyond_ns) if h.BYSTANDER else None
        if stall:
            print(f"  late by {(at_ns - due_ns) / MS:.0f} ms while the machine held a bystander process "
                  f"{(stall[1] - stall[0]) / MS:.0f} ms: not counted", flush=True)
        return stall is not None

    def assert_rings_at(self, member, due_ns, slack_ns, tol_ms=100):
        """The buzzer came on at due_ns (within slack + tol_ms)."""
        on = h.wait_until(lambda: member.buzzer_on(after=due_ns - 2 * S), 5, f"{member.name} to ring")
        off_by = (on[0] - due_ns) / MS
        if off_by > tol_ms + slack_ns / MS and self.machine_stalled(due_ns, on[0], (off_by - tol_ms) * MS - slack_ns):
            return
        self.assertLessEqual(abs(off_by), tol_ms + slack_ns / MS,
                             f"{member.name} rang {off_by:+.1f} ms from when its state said")


# ======================================================================= publishes

class PublishTest(MqttCase):
    def test_retained_state_after_connect(self):
        b = self.broker()
        m = self.member("kitchen", b, presets=("10s",))
        m.wait_link("connected")
        # Once the box has published its state (seen by a first subscriber:
        # "connected" comes with the CONNACK, before the publishes, and a
        # subscription made between the two gets them live, not retained),
        # a subscriber that comes later gets every state topic as retained.
        first = self.subscriber(b, topics=[f"{m.prefix}/#"])
        first.wait(lambda s: all(s.messages(f"{m.prefix}/{t}") for t in STATE_TOPICS), 5,
                   "every state topic: " + ", ".join(STATE_TOPICS))
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait(lambda s: all(s.messages(f"{m.prefix}/{t}") for t in STATE_TOPICS), 5,
               "every state topic: " + ", ".join(STATE_TOPICS))
        expected = {"availability": "online", "state": "ready", "display": "00:10", "mode": "timer",
                    "preset": "10s", "buzzer": "off"}
        for topic, value in expected.items():
            msg = s.last(f"{m.prefix}/{topic}")
            self.assertEqual(msg.payload.decode(), value, topic)
            self.assertTrue(msg.retain, f"{m.prefix}/{topic} is not retained")
        for topic in ("elapsed_ms", "remaining_ms"):
            msg = s.last(f"{m.prefix}/{topic}")
            self.assertIsNotNone(msg, f"{m.prefix}/{topic} missing")
            self.assertRegex(msg.payload.decode(), r"^[0-9]+$", topic)
        self.assertEqual(s.text(f"{m.prefix}/remaining_ms"), "10000")

    def test_start_over_mqtt_and_display_publishes(self):
        preset = 5
        b = self.broker()
        m = self.member("kitchen", b, presets=(f"{preset}s",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait_value(f"{m.prefix}/display", clock_text(preset), 5)
        t0 = h.mono_ns()
        reply = s.request(m.prefix, {"cmd": "start"})
        t1 = h.mono_ns()
        self.assertIs(reply.get("ok"), True, reply)
        self.assertEqual(reply.get("state"), "running", reply)
        after_reply = s.mark()
        s.wait_value(f"{m.prefix}/state", "ringing", preset + 3)
        s.wait_value(f"{m.prefix}/buzzer", "on", 2)
        time.sleep(1.2)  # a few blinks of the ringing display
        end = s.mark()
        log_frames = m.frames()
        self.assert_ticks(m, t0, t1, preset)

        # every display publish is a change of what the display means (its
        # blinks left out: a blank frame is a blink phase), in the same order
        def meanings(texts):
            out = []
            for t in texts:
                if any(c.isdigit() for c in t) and (not out or out[-1] != t):
                    out.append(t)
            return out
        displays = [x.payload.decode() for x in s.messages()[:end] if x.topic == f"{m.prefix}/display"]
        frame_changes = meanings(text for _, text in changes(log_frames))
        self.assertLessEqual(len(displays), len(frame_changes),
                             f"more display publishes than display changes:\n{displays}\n{frame_changes}")
        live = displays[1:]  # after the retained one this subscriber got first
        after_start = meanings(text for _, text in changes(m.frames(after=t0)))
        self.assertEqual(live, after_start[:len(live)], "display publishes vs frames in the timing log")
        self.assertGreaterEqual(len(live), len(after_start) - 1, "display changes not published")
        self.assertNotIn("", displays, "a blink phase was published")
        for k in range(1, preset + 1):
            self.assertIn(clock_text(preset - k), live)

        # the times: integers, no more often than the display
        window = s.messages(since=after_reply)[: end - after_reply]
        elapsed = [x.payload.decode() for x in window if x.topic == f"{m.prefix}/elapsed_ms"]
        remaining = [x.payload.decode() for x in window if x.topic == f"{m.prefix}/remaining_ms"]
        shown = [x for x in window if x.topic == f"{m.prefix}/display"]
        for v in elapsed + remaining:
            self.assertRegex(v, r"^[0-9]+$", "elapsed_ms/remaining_ms must be decimal integers")
        self.assertLessEqual(len(elapsed), len(shown), f"elapsed_ms published more often than the display: "
                                                        f"{len(elapsed)} vs {len(shown)}")
        self.assertLessEqual(len(remaining), len(shown), "remaining_ms published more often than the display")
        self.assertGreaterEqual(len(remaining), preset, "remaining_ms not published with the display changes")
        # each remaining_ms agrees with the display published with it
        last_display = None
        for x in window:
            if x.topic == f"{m.prefix}/display":
                last_display = x.payload.decode()
            elif x.topic == f"{m.prefix}/remaining_ms" and last_display and last_display.strip():
                mm, ss = last_display.split(":")
                shown_ms = (int(mm) * 60 + int(ss)) * 1000
                self.assertLessEqual(abs(int(x.payload) - shown_ms), 1050,
                                     f"remaining_ms {x.payload!r} published with display {last_display!r}")
        self.assertEqual(remaining[-1] if remaining else None, "0")

    def test_clean_stop_publishes_offline(self):
        b = self.broker()
        m = self.member("kitchen", b)
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/availability"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        self.assertEqual(m.stop(), 0, "tock run exit status after SIGTERM")
        s.wait_value(f"{m.prefix}/availability", "offline", 5)
        late = self.subscriber(b, topics=[f"{m.prefix}/availability"])
        msg = late.wait_topic(f"{m.prefix}/availability", 5)
        self.assertEqual((msg.payload, msg.retain), (b"offline", True))

    def test_last_will_on_crash(self):
        b = self.broker()
        m = self.member("kitchen", b)
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/availability"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        m.kill()
        s.wait_value(f"{m.prefix}/availability", "offline", 5)
        late = self.subscriber(b, topics=[f"{m.prefix}/availability"])
        msg = late.wait_topic(f"{m.prefix}/availability", 5)
        self.assertEqual((msg.payload, msg.retain), (b"offline", True), "the Last Will is retained")


# ======================================================================= commands

# Fields that may differ between two replies a moment apart.
VOLATILE = {"display", "elapsed_ms", "remaining_ms", "mqtt", "alarms", "group", "alarm", "state_writes"}
# Fields present only in some states: `time_unverified` while the clock is
# not synchronised and an alarm is on (the two replies below may come after
# edits of different alarms).
SOMETIMES = {"time_unverified"}


class CommandTest(MqttCase):
    def assert_same_shape(self, via_mqtt, via_socket, what):
        self.assertEqual(sorted(set(via_mqtt) - SOMETIMES), sorted(set(via_socket) - SOMETIMES), f"{what}: reply keys differ")
        for k in via_mqtt:
            if k in SOMETIMES:
                continue
            if k not in VOLATILE:
                self.assertEqual(via_mqtt[k], via_socket[k], f"{what}: {k}")
            elif isinstance(via_mqtt[k], dict):
                self.assertEqual(sorted(via_mqtt[k]), sorted(via_socket[k]), f"{what}: keys of {k}")
            elif isinstance(via_mqtt[k], list) and via_mqtt[k] and via_socket[k]:
                self.assertEqual(sorted(via_mqtt[k][0]), sorted(via_socket[k][0]), f"{what}: keys in {k}")
            else:
                self.assertEqual(type(via_mqtt[k]), type(via_socket[k]), f"{what}: type of {k}")

    def test_every_request_kind_same_reply_as_socket(self):
        b = self.broker()
        m = self.member("kitchen", b, presets=("10s",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/reply"])

        # Requests that do the same when repeated: the socket's answer to the
        # same request must look the same.
        same = [
            {"cmd": "status"},
            {"cmd": "set", "duration": "20s"},
            {"cmd": "mode", "mode": "stopwatch"},
            {"cmd": "mode", "mode": "timer"},
            {"cmd": "alarm", "op": "list"},
        ]
        for req in same:
            via_mqtt = s.request(m.prefix, req)
            self.assertIs(via_mqtt.get("ok"), True, f"{req}: {via_mqtt}")
            self.assert_same_shape(via_mqtt, m.request(req), json.dumps(req))
        self.assertEqual(m.status()["preset"], "20s")

        # Alarm edits: one alarm added each way, then edited by number.
        add = {"cmd": "alarm", "op": "add", "at": "06:45", "days": "mon-fri", "label": "gym"}
        a1 = s.request(m.prefix, add)
        self.assertIs(a1.get("ok"), True, a1)
        a2 = m.request(add)
        self.assert_same_shape(a1, a2, "alarm add")
        self.assertEqual(len(a2["alarms"]), 2)
        for op in ("off", "on", "skip-next"):
            r1 = s.request(m.prefix, {"cmd": "alarm", "op": op, "n": 1})
            r2 = m.request({"cmd": "alarm", "op": op, "n": 2})
            self.assertIs(r1.get("ok"), True, f"alarm {op}: {r1}")
            self.assert_same_shape(r1, r2, f"alarm {op}")
        r1 = s.request(m.prefix, {"cmd": "alarm", "op": "rm", "n": 2})
        r2 = m.request({"cmd": "alarm", "op": "rm", "n": 1})
        self.assert_same_shape(r1, r2, "alarm rm")
        self.assertEqual(r2["alarms"], [])
        # a refused edit: the same error either way
        r1 = s.request(m.prefix, {"cmd": "alarm", "op": "rm", "n": 3})
        r2 = m.request({"cmd": "alarm", "op": "rm", "n": 3})
        self.assertIs(r1.get("ok"), False, r1)
        self.assertEqual(r1, r2)

        # Presses: the reply is the status after the press, as the socket's
        # status says it at once.
        for req, state in (({"cmd": "start"}, "running"), ({"cmd": "stop"}, "paused"), ({"cmd": "reset"}, "ready")):
            via_mqtt = s.request(m.prefix, req)
            self.assertIs(via_mqtt.get("ok"), True, f"{req}: {via_mqtt}")
            self.assertEqual(via_mqtt.get("state"), state, f"{req}: {via_mqtt}")
            self.assert_same_shape(via_mqtt, m.status(), json.dumps(req))

    def test_set_and_mode_while_running_refused(self):
        b = self.broker()
        m = self.member("kitchen", b, presets=("30s",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/reply"])
        self.assertEqual(s.request(m.prefix, {"cmd": "start"}).get("state"), "running")
        for req in ({"cmd": "set", "duration": "2m"}, {"cmd": "mode", "mode": "stopwatch"}):
            via_mqtt = s.request(m.prefix, req)
            self.assertIs(via_mqtt.get("ok"), False, f"{req} while running: {via_mqtt}")
            self.assertIsInstance(via_mqtt.get("error"), str)
            self.assertTrue(via_mqtt["error"], "empty error text")
            self.assertEqual(via_mqtt, m.request(req), f"{req}: MQTT and socket differ")
        self.assertEqual(m.status()["state"], "running")
        self.assertEqual(m.status()["preset"], "30s")

    def test_watch_refused(self):
        b = self.broker()
        m = self.member("kitchen", b)
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/reply"])
        r = s.request(m.prefix, {"cmd": "watch"})
        self.assertIs(r.get("ok"), False, r)
        self.assertIsInstance(r.get("error"), str)
        self.assertTrue(r["error"])
        # and the link goes on answering
        self.assertIs(s.request(m.prefix, {"cmd": "status"}).get("ok"), True)

    def test_reply_not_retained(self):
        b = self.broker()
        m = self.member("kitchen", b)
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/reply"])
        s.request(m.prefix, {"cmd": "status"})
        self.assertFalse(s.last(f"{m.prefix}/reply").retain)
        late = self.subscriber(b, topics=[f"{m.prefix}/reply"])
        time.sleep(0.5)
        self.assertEqual(late.messages(), [], "P/reply must not be retained")


    def test_retained_command_never_runs_again(self):
        """A command published with the retain flag is carried out when it
        arrives, and never again: not when the box connects later, and not
        when a broker that keeps retained messages on disk restarts."""
        b = self.broker(extra_conf="persistence true\npersistence_location {}/\nautosave_interval 1".format(self.tmp))
        s = self.subscriber(b, topics=["tock/kitchen/#"])
        s.publish("tock/kitchen/cmd", json.dumps({"cmd": "start"}).encode(), retain=True)
        m = self.member("kitchen", b)
        m.wait_link("connected")
        h.wait_until(lambda: m.status()["mqtt"]["received"] == 1, 5, "the retained command received", detail=m.describe)
        self.assertEqual(m.status()["state"], "ready", "a retained command was carried out")
        self.assertEqual(m.status()["mqtt"].get("retained_ignored"), 1)
        self.assertEqual(len(m.log_lines("mqtt: ignored a retained command")), 1, m.log())
        # A retained reset published to a paused count is carried out once, live...
        self.assertIs(m.request({"cmd": "start"}).get("ok"), True)
        self.assertIs(m.request({"cmd": "stop"}).get("ok"), True)
        s.publish("tock/kitchen/cmd", json.dumps({"cmd": "reset"}).encode(), retain=True)
        h.wait_until(lambda: m.status()["state"] == "ready", 5, "the live reset", detail=m.describe)
        # ... and not again when the broker restarts with it on disk.
        self.assertIs(m.request({"cmd": "start"}).get("ok"), True)
        self.assertIs(m.request({"cmd": "stop"}).get("ok"), True)
        paused = m.status()["display"]
        b.restart()
        h.wait_until(lambda: m.status()["mqtt"].get("retained_ignored") == 2, 15, "the kept reset handed over again",
                     detail=m.describe)
        self.assertEqual((m.status()["state"], m.status()["display"]), ("paused", paused))


# ======================================================================= discovery

def discovery_topic(component, node, obj):
    return f"homeassistant/{component}/{node}/{obj}/config"


class DiscoveryTest(MqttCase):
    def validator(self, component):
        schema = json.loads(SCHEMA_PATH.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        sub = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": f"#/$defs/{component}"}
        return jsonschema.Draft202012Validator(sub)

    def discovery(self, broker, node, want_empty=False, timeout=5):
        s = self.subscriber(broker, topics=["homeassistant/#"])
        topics = [discovery_topic(c, node, o) for c, o in DISCOVERY_OBJECTS]
        s.wait(lambda s: all(s.messages(t) for t in topics), timeout, "all discovery configs:\n  " + "\n  ".join(topics))
        return s, {t: s.last(t) for t in topics}

    def test_configs_valid(self):
        b = self.broker()
        node = "kitchen"
        m = self.member(node, b)
        m.wait_link("connected")
        self.discovery(b, node)
        # Asked again once all are out: a subscriber that came while the
        # link was still publishing got some of them live (not flagged
        # retained); a fresh one gets only what the broker keeps.
        _, configs = self.discovery(b, node)
        p = m.prefix
        for (component, obj) in DISCOVERY_OBJECTS:
            msg = configs[discovery_topic(component, node, obj)]
            self.assertTrue(msg.retain, f"{msg.topic} not retained")
            config = json.loads(msg.payload)
            errors = sorted(self.validator(component).iter_errors(config), key=lambda e: list(e.path))
            self.assertEqual([f"{list(e.path)}: {e.message}" for e in errors], [], f"{msg.topic}: {config}")
            if component == "device_automation":
                topic = f"{p}/timer_event" if obj == "timer_finished" else f"{p}/event"
                self.assertEqual((config["topic"], config["payload"]), (topic, obj))
                continue
            self.assertEqual(config["unique_id"], f"{node}_{obj}")
            self.assertEqual(config["default_entity_id"], f"{component}.tock_{node}_{obj}")
            self.assertEqual(config["qos"], 1)
            if "availability" in config:  # shown only while another topic says so, and while online
                self.assertEqual(config["availability"][0], {"topic": f"{p}/availability", "payload_available": "online",
                                                             "payload_not_available": "offline"})
            else:
                self.assertEqual(config["availability_topic"], f"{p}/availability")
                self.assertEqual((config["payload_available"], config["payload_not_available"]), ("online", "offline"))
            dev = config["device"]
            self.assertEqual(dev["identifiers"], [f"tock_{node}"])
            self.assertEqual(dev["manufacturer"], "Tock")
            # The Timer select and its buttons send to the bridge's own
            # topic (the box keeps which timer is selected).
            picker = obj == "timer" or obj.startswith("timer_")
            if component in ("button", "select", "text", "number", "time"):
                self.assertEqual(config["command_topic"], f"{p}/timer_cmd" if picker else f"{p}/cmd")
            if (component, obj) == ("button", "timer_add_minute"):
                self.assertEqual(json.loads(config["payload_press"]), {"op": "add", "duration": "1m"})
            elif (component, obj) == ("button", "add_minute"):
                self.assertEqual(json.loads(config["payload_press"]), {"cmd": "add", "duration": "1m"})
            elif component == "button" and picker:
                self.assertEqual(json.loads(config["payload_press"]), {"op": obj.removeprefix("timer_")})
            elif component == "button":
                press = {"snooze": "stop", "dismiss": "reset"}.get(obj, obj)
                self.assertEqual(json.loads(config["payload_press"]), {"cmd": press})
        self.assertEqual(json.loads(configs[discovery_topic("sensor", node, "state")].payload)["state_topic"], f"{p}/state")
        self.assertEqual(json.loads(configs[discovery_topic("sensor", node, "display")].payload)["state_topic"],
                         f"{p}/display")
        self.assertEqual(json.loads(configs[discovery_topic("sensor", node, "remaining")].payload)["state_topic"],
                         f"{p}/remaining_ms")
        select = json.loads(configs[discovery_topic("select", node, "mode")].payload)
        self.assertEqual(select["options"], MODES)
        self.assertEqual(select["state_topic"], f"{p}/mode")
        self.assertEqual(select["command_template"], '{"cmd":"mode","mode":"{{ value }}"}')
        text = json.loads(configs[discovery_topic("text", node, "preset")].payload)
        self.assertEqual(text["state_topic"], f"{p}/preset")
        self.assertEqual(text["command_template"], '{"cmd":"set","duration":"{{ value }}"}')
        # all entities belong to one device
        devices = {json.dumps(json.loads(msg.payload)["device"], sort_keys=True) for msg in configs.values()}
        self.assertEqual(len(devices), 1, devices)

    def test_entities_work_as_home_assistant_uses_them(self):
        b = self.broker()
        node = "kitchen"
        m = self.member(node, b, presets=("10s",))
        m.wait_link("connected")
        s, configs = self.discovery(b, node)
        state = self.subscriber(b, topics=[f"{m.prefix}/#"])

        def press(obj):
            c = json.loads(configs[discovery_topic("button", node, obj)].payload)
            return state.request(m.prefix, c["payload_press"].encode()) if c["command_topic"] == f"{m.prefix}/cmd" \
                else self.fail(f"button {obj} command_topic {c['command_topic']}")

        def render(component, obj, value):
            """What Home Assistant sends: the command_template with the value."""
            c = json.loads(configs[discovery_topic(component, node, obj)].payload)
            return c["command_topic"], c["command_template"].replace("{{ value }}", value)

        for obj, expect in (("start", "running"), ("stop", "paused"), ("reset", "ready")):
            r = press(obj)
            self.assertIs(r.get("ok"), True, f"button {obj}: {r}")
            self.assertEqual(r.get("state"), expect, f"button {obj}")
            state.wait_value(f"{m.prefix}/state", expect, 3)
        topic, payload = render("text", "preset", "20s")
        r = state.request(m.prefix, payload.encode())
        self.assertIs(r.get("ok"), True, r)
        state.wait_value(f"{m.prefix}/preset", "20s", 3)
        topic, payload = render("select", "mode", "stopwatch")
        r = state.request(m.prefix, payload.encode())
        self.assertIs(r.get("ok"), True, r)
        state.wait_value(f"{m.prefix}/mode", "stopwatch", 3)

    def test_plus_one_minute_as_home_assistant_presses_it(self):
        """+1 min on the count, +1 min timer on the timer selected, Add time
        with a name and a sign: each moves the end by what it says, as the
        box's socket and P/timers tell; a refusal says why on P/reply."""
        b = self.broker()
        node = "kitchen"
        m = self.member(node, b, presets=("10m",))
        m.wait_link("connected")
        _, configs = self.discovery(b, node)
        p = m.prefix
        s = self.subscriber(b, topics=[f"{p}/#"])

        def config(component, obj):
            return json.loads(configs[discovery_topic(component, node, obj)].payload)

        def reply_to(topic, payload):
            start = s.mark()
            s.publish(topic, payload)
            return json.loads(s.wait(lambda s: s.messages(f"{p}/reply", start), 5, f"a reply to {payload}")[0].payload)

        def left_ms():
            return m.status()["remaining_ms"]

        def egg_ends():
            egg = [t for t in json.loads(s.text(f"{p}/timers") or "[]") if t["name"] == "EGG"]
            return datetime.datetime.fromisoformat(egg[0]["ends"]) if egg and "ends" in egg[0] else None
        plus = config("button", "add_minute")
        r = reply_to(plus["command_topic"], plus["payload_press"])
        self.assertIn("nothing is counting", r.get("error", ""), r)
        m.request({"cmd": "start"})
        before = left_ms()
        r = reply_to(plus["command_topic"], plus["payload_press"])
        self.assertIs(r.get("ok"), True, r)
        grew = left_ms() - before
        self.assertTrue(59_000 <= grew <= 61_000, f"+1 min: {before} -> {left_ms()}")
        # An extra timer: selected (the only one), then +1 min timer.
        self.assertIs(s.request(p, {"cmd": "timer", "op": "add", "name": "EGG", "duration": "5m"}).get("ok"), True)
        s.wait_value(f"{p}/timer_selected", "EGG", 5)
        ends = egg_ends()
        timer = config("button", "timer_add_minute")
        time.sleep(1.1)  # past the one-a-second rule of P/timers
        r = reply_to(timer["command_topic"], timer["payload_press"])
        self.assertIs(r.get("ok"), True, r)
        s.wait(lambda s: egg_ends() == ends + datetime.timedelta(seconds=60), 3, f"EGG's end a minute later than {ends}")
        # Add time, as Home Assistant renders it: a name and a minus.
        text = config("text", "add_time")
        self.assertTrue(re.match(text["pattern"], "EGG -30s"))
        time.sleep(1.1)
        r = reply_to(text["command_topic"], render_add_timer(text["command_template"], "EGG -30s"))
        self.assertIs(r.get("ok"), True, r)
        s.wait(lambda s: egg_ends() == ends + datetime.timedelta(seconds=30), 3, "EGG's end 30 s earlier")
        before, t = left_ms(), time.monotonic()
        r = reply_to(text["command_topic"], render_add_timer(text["command_template"], "100h"))
        self.assertIn("would make it more than 99h59m", r.get("error", ""), r)
        self.assertLessEqual(abs(left_ms() - before + (time.monotonic() - t) * 1000), 1500, "a refusal changes nothing")

    def test_discovery_false_clears_configs(self):
        b = self.broker()
        node = "kitchen"
        m = self.member(node, b)
        m.wait_link("connected")
        watcher, _ = self.discovery(b, node)
        mark = watcher.mark()
        self.assertEqual(m.stop(), 0)
        off = self.member(node, b, discovery=False)
        off.wait_link("connected")
        topics = [discovery_topic(c, node, o) for c, o in DISCOVERY_OBJECTS]
        watcher.wait(lambda s: all(any(x.payload == b"" for x in s.messages(t, mark)) for t in topics), 5,
                     "an empty payload on every discovery topic")
        # empty and retained: the broker has dropped the configs
        late = self.subscriber(b, topics=["homeassistant/#"])
        time.sleep(0.5)
        self.assertEqual([x.topic for x in late.messages()], [], "discovery configs still retained")


# ======================================================================= extra timers

TIMER_TOPICS = ("timers", "next_timer", "next_timer_attributes")


def render_add_timer(template, value):
    """What Home Assistant sends for the Add timer text: its command
    template rendered by Jinja (Home Assistant's tojson is Python's JSON
    encoder; Jinja's own escapes <, >, & and ' too, still valid JSON)."""
    import jinja2
    return jinja2.Environment().from_string(template).render(value=value)


class TimersTest(MqttCase):
    """The extra timers (docs/timers.md) on MQTT: added, paused, cancelled
    through P/cmd, listed on P/timers once per change, each ring on
    P/timer_event with its name."""

    def watched(self):
        b = self.broker()
        m = self.member("kitchen", b, presets=("9m",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/#", "homeassistant/#"])
        s.wait_value(f"{m.prefix}/timers", "[]", 5)
        time.sleep(1.1)  # past the one-a-second rule of the retained values
        return b, m, s

    def timers(self, s, m):
        return json.loads(s.text(f"{m.prefix}/timers") or "[]")

    def test_add_list_ring_and_cancel_over_mqtt(self):
        b, m, s = self.watched()
        p = m.prefix
        mark = s.mark()
        r = s.request(p, {"cmd": "timer", "op": "add", "name": "EGG", "duration": "3s"})
        self.assertIs(r.get("ok"), True, r)
        s.wait(lambda s: any(t["name"] == "EGG" for t in self.timers(s, m)), 3, "EGG on P/timers")
        egg = self.timers(s, m)[0]
        self.assertEqual((egg["state"], egg["duration"]), ("running", "3s"), egg)
        self.assertRegex(egg["ends"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")
        self.assertEqual(s.text(f"{p}/next_timer"), egg["ends"])
        self.assertEqual(json.loads(s.text(f"{p}/next_timer_attributes")), {"name": "EGG"})
        # Its ring: an event with its name, not retained; the list says ringing.
        ev = s.wait_topic(f"{p}/timer_event", 6, since=mark)
        self.assertEqual(json.loads(ev.payload), {"event_type": "timer_finished", "name": "EGG", "duration": "3s"})
        self.assertFalse(ev.retain)
        s.wait(lambda s: [t["state"] for t in self.timers(s, m)] == ["ringing"], 3, "EGG ringing on P/timers")
        self.assertEqual(s.text(f"{p}/next_timer"), "None")
        # The socket and the topic agree.
        self.assertEqual([(t["name"], t["state"]) for t in m.status()["timers"]], [("EGG", "ringing")])
        time.sleep(1.5)
        per_change = {t: len(s.messages(f"{p}/{t}", mark)) for t in TIMER_TOPICS}
        nbytes = sum(len(x.payload) for t in TIMER_TOPICS for x in s.messages(f"{p}/{t}", mark))
        print(f"  timers: add then ring, 2 changes: {per_change} publishes, {nbytes} bytes "
              f"(+{len(s.messages(f'{p}/timer_event', mark))} on timer_event)", flush=True)
        self.assertLessEqual(per_change["timers"], 2, per_change)
        # A quiet minute's worth of seconds changes nothing on the timers' topics.
        r = s.request(p, {"cmd": "timer", "op": "add", "name": "tEA", "duration": "10m"})
        self.assertIs(r.get("ok"), True, r)
        time.sleep(1.5)
        quiet = s.mark()
        time.sleep(4)
        self.assertEqual([x.topic for x in s.messages(since=quiet) if x.topic.rsplit("/", 1)[-1] in TIMER_TOPICS], [],
                         "the timers' topics follow the seconds")
        # Pause, resume, cancel.
        for op, want in (("pause", "paused"), ("resume", "running"), ("cancel", None)):
            time.sleep(1.1)
            r = s.request(p, {"cmd": "timer", "op": op, "name": "tEA"})
            self.assertIs(r.get("ok"), True, f"{op}: {r}")
            s.wait(lambda s: [t["state"] for t in self.timers(s, m) if t["name"] == "tEA"] == ([want] if want else []), 3,
                   f"tEA {want} on P/timers")
            if want == "paused":
                self.assertEqual(self.timers(s, m)[-1]["remaining_ms"] % 1000, 0)

    def test_add_timer_text_as_home_assistant_sends_it_and_refusals(self):
        b, m, s = self.watched()
        p = m.prefix
        node = "kitchen"
        s.wait(lambda s: s.messages(discovery_topic("text", node, "add_timer")), 5, "the Add timer config")
        text = json.loads(s.last(discovery_topic("text", node, "add_timer")).payload)
        pattern = re.compile(text["pattern"])
        ok = render_add_timer(text["command_template"], "brEd 3m30s")
        self.assertEqual(json.loads(ok), {"cmd": "timer", "op": "add", "name": "brEd", "duration": "3m30s"})
        r = s.request(p, ok.encode())
        self.assertIs(r.get("ok"), True, r)
        s.wait(lambda s: [t["name"] for t in self.timers(s, m)] == ["brEd"], 3, "brEd on P/timers")
        # Values a person may type: refused with a sentence naming why, and logged.
        for value, why in (('E"G 1m', "cannot be drawn"), ("ÉGG 1m", "cannot be drawn"), ("É\u00e9'x 1m", "cannot be drawn"),
                           ("PASTAPASTAPASTA1 1m", "longer than the display's"), ("EGG 100h", "99h59m is the longest"),
                           ("t1 1m", "the box's own count"), ("brEd 5m", "is running")):
            self.assertTrue(pattern.match(value), value)
            payload = render_add_timer(text["command_template"], value)
            json.loads(payload)  # valid JSON whatever the name
            r = s.request(p, payload.encode())
            self.assertIs(r.get("ok"), False, f"{value}: {r}")
            self.assertIn(why, r.get("error", ""), value)
        self.assertFalse(pattern.match("EGG"))
        r = s.request(p, render_add_timer(text["command_template"], "EGG 99h59m").encode())
        self.assertIs(r.get("ok"), True, r)
        s.wait(lambda s: [t["duration"] for t in self.timers(s, m)] == ["3m30s", "99h59m"], 3, "99h59m on P/timers")
        refused = m.log_lines("mqtt: refused")
        self.assertGreaterEqual(len(refused), 1, m.log())
        self.assertLessEqual(len(refused), 2, refused)  # at most one a minute
        self.assertIn('{"cmd":"timer","op":"add"', refused[0])

    def test_timer_command_flood(self):
        """Hundreds of timer commands, extreme values and malformed JSON at
        once, while the box's own count runs: the count rings on time,
        the box ends with at most 8 timers and the list on P/timers is the
        box's own, and the timers' topics change at most once a second."""
        b, m, s = self.watched()
        p = m.prefix
        m.request({"cmd": "set", "duration": "20s"})
        t0, t1, _ = self.start_on_socket(m)
        before = m.status()["mqtt"]
        mark = s.mark()
        flood = self.subscriber(b, topics=[])
        names = ["A", "b", "C", "d", "E", "F", "H", "J", "L", "n", "PASTAPASTAPASTA1", 'E"G', "ÉGG", "t1"]
        bad = [b'{"cmd":"timer","op":"add","name":"EGG"', b'{"cmd":"timer","op":"add","name":"EGG","duration":6}',
               b'{"cmd":"timer","op":"boom","name":"EGG"}', b'{"cmd":"timer","op":"add","name":"","duration":"1m"}',
               b'{"cmd":"timer","op":"add","name":"ABCDEFGHIJKLMNOPQ","duration":"1m"}', b"\xff{"]
        n = 600
        sent_bad = 0
        started = time.monotonic()
        info = None
        for i in range(n):
            name = names[i % len(names)]
            k = i % 6
            if k == 5:
                payload = bad[(i // 6) % len(bad)]
                sent_bad += 1
            elif k == 0:
                payload = json.dumps({"cmd": "timer", "op": "add", "name": name,
                                      "duration": ["99h59m", "3m", "10m", "45m"][i % 4]}).encode()
            else:
                payload = json.dumps({"cmd": "timer", "op": ["pause", "resume", "cancel", "list"][k - 1], "name": name}
                                     if k != 4 else {"cmd": "timer", "op": "list"}).encode()
            info = flood.client.publish(f"{p}/cmd", payload, qos=1)
        info.wait_for_publish(30)
        h.wait_until(lambda: m.status()["mqtt"]["received"] - before["received"] >= n, 30,
                     f"tock to receive all {n} commands", detail=m.describe)
        flood_s = time.monotonic() - started
        time.sleep(2.5)  # the held values' flush, the last replies
        after = m.status()["mqtt"]
        st = m.status()
        self.assertLessEqual(len(st["timers"]), 8, st["timers"])
        self.assertEqual([(t["name"], t["state"]) for t in self.timers(s, m)],
                         [(t["name"], t["state"]) for t in st["timers"]], "P/timers is the box's own list")
        self.assertEqual(after["received"] - before["received"], n, after)
        self.assertEqual(after["ignored"] - before["ignored"], sent_bad, after)
        span = (s.messages(since=mark)[-1].mono - s.messages(since=mark)[0].mono) / S if s.messages(since=mark) else 0
        counts = {t: len(s.messages(f"{p}/{t}", mark)) for t in TIMER_TOPICS + ("reply", "timer_event")}
        nbytes = sum(len(x.payload) for x in s.messages(since=mark) if not x.topic.startswith("homeassistant/"))
        print(f"  timer flood: {n} commands ({sent_bad} malformed) in {flood_s:.1f} s; published over {span:.1f} s: "
              f"{counts}, {nbytes} bytes in all; mqtt {after}", flush=True)
        for t in TIMER_TOPICS:
            self.assertLessEqual(counts[t], span + 2, f"{t}: {counts[t]} publishes in {span:.1f} s")
        self.assertLessEqual(len(m.log_lines("mqtt: refused")), 2, "at most one refused line a minute")
        self.assertEqual(m.link(), "connected")
        # The box's own count rings on time (its digits carry the timers'
        # dot now, so the frames are not compared with plain mm:ss).
        m.wait_state("ringing", timeout=23)
        self.assert_rings_at(m, t0 + 20 * S, t1 - t0)


# ======================================================================= faults

class FaultTest(MqttCase):
    def test_broker_down_at_start(self):
        b = self.broker(start=False)
        m = self.member("kitchen", b, presets=("20s",))
        h.wait_until(lambda: m.log_lines("cannot connect"), 5, "a `cannot connect` line",
                     detail=m.describe)
        line = m.log_lines("cannot connect")[0]
        self.assertIn(f"mqtt: cannot connect to 127.0.0.1:{b.port} (", line)
        self.assertRegex(line, r"retrying in [0-9]+ ?s")
        self.assertNotEqual(m.link(), "connected")
        t0, t1, _ = self.start_on_socket(m)
        time.sleep(1.5)
        b.start()
        m.wait_link("connected", timeout=20)
        self.assertEqual(len(m.log_lines("cannot connect")), 1,
                         "one `cannot connect` line while the broker is down, not one per retry:\n" + m.log())
        self.assertTrue(m.log_lines(f"mqtt: connected to 127.0.0.1:{b.port}"), m.log())
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        s.wait_value(f"{m.prefix}/state", "running", 5)
        displayed = m.status()["display"]
        s.wait(lambda s: s.text(f"{m.prefix}/display") in (displayed, m.status()["display"]), 3,
               "the display published")
        self.assert_ticks(m, t0, t1, 20, upto=whole_seconds_since(t1))

    def test_broker_that_never_answers(self):
        """A port that takes the TCP connection and never answers CONNECT:
        the line says what happened (libmosquitto's own text for it is
        "Unknown error."), once, and the timer keeps its time."""
        silent = h.SilentListener()
        self.addCleanup(silent.close)
        m = self.member("kitchen", presets=("20s",),
                        mqtt={"host": "127.0.0.1", "port": silent.port, "client_id": "kitchen", "keepalive": "5s"})
        t0, t1, _ = self.start_on_socket(m)
        h.wait_until(lambda: m.log_lines("cannot connect"), 15, "a `cannot connect` line", detail=m.describe)
        line = m.log_lines("cannot connect")[0]
        print(f"  {line.strip()}", flush=True)
        self.assertNotIn("Unknown error", line)
        self.assertIn(f"mqtt: cannot connect to 127.0.0.1:{silent.port} (it took the TCP connection "
                      "but never answered the MQTT CONNECT within 5s, the mqtt.keepalive; check that an MQTT "
                      "broker listens on this port, without TLS unless mqtt.tls is set)", line)
        self.assertRegex(line, r"retrying in [0-9]+ ?s")
        self.assertGreaterEqual(silent.connections, 1)
        self.assertGreater(silent.received, 0, "no CONNECT reached the listener")
        self.assertNotEqual(m.link(), "connected")
        # a second attempt, same reason: no second line
        h.wait_until(lambda: silent.connections >= 2, 15, "a second attempt", detail=m.describe)
        self.assertEqual(len(m.log_lines("cannot connect")), 1, m.log())
        self.assert_ticks(m, t0, t1, 20, upto=whole_seconds_since(t1))

    def test_broker_that_stops_answering(self):
        """A link that goes silent once connected (the proxy holds every
        byte from then on): libmosquitto's keepalive gives up, and the line
        says so in words, not "Unknown error."."""
        b = self.broker()
        proxy = h.SlowProxy("127.0.0.1", b.port, delay=0, chunk=65536)
        self.addCleanup(proxy.close)
        m = self.member("kitchen", b, port=proxy.port, keepalive="5s")
        m.wait_link("connected", timeout=10)
        proxy.delay = 3600
        h.wait_until(lambda: lost_lines(m), 20, "a `connection lost` line", detail=m.describe)
        line = lost_lines(m)[0]
        print(f"  {line.strip()}", flush=True)
        self.assertNotIn("Unknown error", line)
        self.assertIn(f"mqtt: connection lost (no answer to a keepalive ping within 5s, the mqtt.keepalive) "
                      f"to 127.0.0.1:{proxy.port}", line)
        self.assertRegex(line, LOST_WORDING, "docs/mqtt.md's wording of the line")

    def test_broker_killed_and_restarted_mid_count(self):
        preset = 12
        b = self.broker()
        m = self.member("kitchen", b, presets=(f"{preset}s",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        t0, t1, _ = self.start_on_socket(m)
        time.sleep(3)
        b.kill()
        h.wait_until(lambda: lost_lines(m), 5, "a `connection lost` line", detail=m.describe)
        self.assertIn(m.link(), ("connecting", "down"))
        q0 = h.mono_ns()
        st = m.status()
        q1 = h.mono_ns()
        self.assertEqual(st["state"], "running")
        due = q0 + st["remaining_ms"] * MS  # when the state says it will ring
        time.sleep(1)
        b.restart()
        mark = s.mark()
        m.wait_link("connected", timeout=15)
        self.assertEqual(len(lost_lines(m)), 1, m.log())
        # everything is published again (the restarted broker kept nothing)
        s.wait(lambda s: all(s.messages(f"{m.prefix}/{t}", mark) for t in STATE_TOPICS), 5,
               "every state topic again after the reconnect")
        self.assertEqual(s.texts(f"{m.prefix}/availability", mark)[-1], "online")
        self.assertEqual(s.texts(f"{m.prefix}/state", mark)[-1], "running")
        m.wait_state("ringing", timeout=preset + 2)
        self.assert_rings_at(m, due, q1 - q0)
        self.assert_ticks(m, t0, t1, preset)
        s.wait_value(f"{m.prefix}/state", "ringing", 3)
        self.assertRegex(lost_lines(m)[0], LOST_WORDING, "docs/mqtt.md's wording of the line")

    @unittest.skipUnless(h.can_partition(), "needs root for a network namespace")
    def test_network_partition(self):
        p = h.Partition()
        self.addCleanup(p.close)
        print(f"  partition by {p.method} in {p.ns}", flush=True)
        b = self.broker(hosts=("127.0.0.1", p.root_ip))
        section = h.mqtt_section(b, "kitchen", host=p.root_ip, keepalive="5s")
        m = self.member("kitchen", mqtt=section, netns=p.ns, presets=("60s",))
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        t0, t1, _ = self.start_on_socket(m)
        time.sleep(1)
        p.cut()
        cut_at = time.monotonic()
        # keepalive 5 s: tock must notice within about two keepalives
        h.wait_until(lambda: lost_lines(m), 15, "tock to notice the partition (`connection lost`)",
                     detail=m.describe)
        lost_s = time.monotonic() - cut_at
        self.assertIn(m.link(), ("connecting", "down"))
        # the broker gives up on it too and publishes the Last Will
        s.wait_value(f"{m.prefix}/availability", "offline", 12)
        self.assertEqual(m.status()["state"], "running")
        p.heal()
        healed_at = time.monotonic()
        m.wait_link("connected", timeout=30)
        back_s = time.monotonic() - healed_at
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        print(f"  link lost after {lost_s:.1f} s, back {back_s:.1f} s after the heal", flush=True)
        self.assertEqual(len(lost_lines(m)), 1, m.log())
        self.assertEqual(len(m.log_lines("mqtt: connected to")), 2, m.log())
        self.assert_ticks(m, t0, t1, 60, upto=whole_seconds_since(t1))

    def test_slow_link(self):
        preset = 10
        b = self.broker()
        proxy = h.SlowProxy("127.0.0.1", b.port, delay=0.5, chunk=256)
        self.addCleanup(proxy.close)
        m = self.member("kitchen", b, presets=(f"{preset}s",), port=proxy.port)
        t0, t1, _ = self.start_on_socket(m)
        s = self.subscriber(b, topics=[f"{m.prefix}/state", f"{m.prefix}/availability"])
        m.wait_link("connected", timeout=15)
        s.wait_value(f"{m.prefix}/state", "running", 20)
        m.wait_state("ringing", timeout=preset + 5)
        status = m.status()
        print(f"  through the slow proxy: {proxy.forwarded['up']} bytes up, worst stall "
              f"{status['mqtt']['worst_stall_us']} us", flush=True)
        self.assert_ticks(m, t0, t1, preset)
        self.assert_rings_at(m, t0 + preset * S, t1 - t0)
        s.wait_value(f"{m.prefix}/state", "ringing", 20)

    def test_stalled_broker(self):
        """A broker that stops reading what the box sends (the proxy reads
        nothing more, its receive buffer small), while status requests reach
        the box the other way (20 of 64: the broker's own window, which the
        box's acknowledgements no longer open) and the count goes on: the
        box keeps at most MqttClient.unsentBound (1 KiB, TCP_NOTSENT_LOWAT)
        unsent in the kernel beyond the message that crossed it, and one
        value a state topic; when the broker reads again, the other 44
        requests arrive, every topic's latest value arrives and the count
        rings on time."""
        preset = 15
        b = self.broker()
        proxy = h.SlowProxy("127.0.0.1", b.port, delay=0, chunk=65536, rcvbuf=2048)
        self.addCleanup(proxy.close)
        m = self.member("kitchen", b, presets=(f"{preset}s",), port=proxy.port)
        m.wait_link("connected", timeout=15)
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait_value(f"{m.prefix}/availability", "online", 10)
        time.sleep(0.5)  # the discovery configs are through
        rss0 = m.rss_kb()
        before = m.status()["mqtt"]
        t0, t1, _ = self.start_on_socket(m)
        proxy.pause("up")
        asker = self.subscriber(b, topics=[])
        for _ in range(64):
            asker.publish(f"{m.prefix}/cmd", b'{"cmd":"status"}')
        h.wait_until(lambda: m.status()["mqtt"]["received"] - before["received"] >= 20, 10,
                     "the box to receive 20 of the requests", detail=m.describe)

        def queued():
            """(Send-Q, notsent) of the box's socket to the proxy, from ss."""
            out = subprocess.run(["ss", "-tinH", "state", "established", "dst", f"127.0.0.1:{proxy.port}"],
                                 capture_output=True, text=True, check=True).stdout
            send_q = int(out.split()[1]) if out.split() else 0
            notsent = re.search(r"notsent:(\d+)", out)
            return send_q, int(notsent.group(1)) if notsent else 0

        samples = []
        for _ in range(15):  # three seconds of the stall, with the count's seconds
            samples.append(queued())
            time.sleep(0.2)
        most_queued = max(q for q, _ in samples)
        most_unsent = max(n for _, n in samples)
        during = m.status()
        print(f"  stalled: Send-Q up to {most_queued} B, unsent up to {most_unsent} B, "
              f"{during['mqtt']['received'] - before['received']} requests received", flush=True)
        self.assertGreater(most_unsent, 0, f"the stall never filled the socket: {samples}")
        # The bound, and the one message that may cross it (a status reply).
        reply = len(json.dumps(during)) + 64
        self.assertLessEqual(most_unsent, 1024 + reply, f"unsent bytes beyond the bound: {samples}")
        self.assertEqual(during["mqtt"]["link"], "connected")
        self.assertLess(m.rss_kb() - rss0, 2048, "the box's memory grew during the stall")
        proxy.resume("up")
        h.wait_until(lambda: m.status()["mqtt"]["received"] - before["received"] == 64, 10,
                     "the other requests to arrive", detail=m.describe)
        # Every topic's latest value: the count's seconds as the box has them.
        h.wait_until(lambda: abs(int(s.text(f"{m.prefix}/remaining_ms") or 0) - m.status()["remaining_ms"]) <= 1000, 10,
                     "the remaining time on the broker to catch up", detail=s.summary)
        self.assertEqual(s.text(f"{m.prefix}/state"), "running")
        m.wait_state("ringing", timeout=preset + 5)
        s.wait_value(f"{m.prefix}/state", "ringing", 5)
        s.wait_value(f"{m.prefix}/remaining_ms", "0", 5)
        self.assert_ticks(m, t0, t1, preset)
        self.assert_rings_at(m, t0 + preset * S, t1 - t0)

    def test_command_flood(self):
        preset, n, every = 20, 10_000, 10
        b = self.broker()
        m = self.member("kitchen", b, presets=(f"{preset}s",))
        m.wait_link("connected")
        replies = self.subscriber(b, topics=[f"{m.prefix}/reply"])
        flood = self.subscriber(b, topics=[])
        time.sleep(0.5)
        before = m.status()["mqtt"]
        rss0 = m.rss_kb()
        t0, t1, _ = self.start_on_socket(m)
        garbage = [b"not json", b"{", b'{"cmd":"nope"}', b"[]", b'{"cmd":5}', b"\xff\xfe\xfd", b"",
                   b'{"cmd":"status"', b"null", b'"status"']
        sent_garbage = 0
        info = None
        started = time.monotonic()
        for i in range(n):
            if i % every == every - 1:
                payload = garbage[(i // every) % len(garbage)]
                sent_garbage += 1
            else:
                payload = b'{"cmd":"status"}'
            info = flood.client.publish(f"{m.prefix}/cmd", payload, qos=1)
        info.wait_for_publish(60)
        self.assertTrue(info.is_published(), "the flood was not acknowledged by the broker within 60 s")
        h.wait_until(lambda: m.status()["mqtt"]["received"] - before["received"] >= n, 60,
                     f"tock to receive all {n} commands", detail=m.describe)
        flood_s = time.monotonic() - started
        time.sleep(1)  # replies still in flight
        rss1 = m.rss_kb()
        after = m.status()["mqtt"]
        got = len(replies.messages())
        print(f"  flood: {n} commands in {flood_s:.1f} s, {got} replies, RSS {rss0} -> {rss1} kB, "
              f"mqtt status {after}", flush=True)
        self.assertEqual(after["received"] - before["received"], n, after)
        # every payload that is not a request is ignored, and nothing else;
        # requests beyond the 64 waiting are dropped and counted apart
        self.assertEqual(after["ignored"] - before["ignored"], sent_garbage, after)
        self.assertGreater(after["dropped"] - before["dropped"], 0, after)
        self.assertLessEqual(len(m.log_lines("mqtt: dropped")), 2, m.log())
        self.assertLessEqual(got, n - sent_garbage, "a reply to something that was not a request")
        self.assertLess(rss1 - rss0, 8 * 1024, f"RSS grew by {rss1 - rss0} kB")
        ignored_lines = m.log_lines("mqtt: ignored")
        self.assertGreaterEqual(len(ignored_lines), 1, "no `mqtt: ignored` line at all")
        self.assertLessEqual(len(ignored_lines), 2, "\n".join(ignored_lines))
        self.assertEqual(m.link(), "connected")
        m.wait_state("ringing", timeout=preset + 3)
        self.assert_ticks(m, t0, t1, preset)
        self.assert_rings_at(m, t0 + preset * S, t1 - t0)

    def linked_and_watched(self):
        """A connected member, a subscriber to all its topics with the
        retained ones in, its mqtt counters and a mark in the subscriber."""
        b = self.broker()
        m = self.member("kitchen", b)
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)  # the retained messages are in
        time.sleep(0.2)
        before = m.status()["mqtt"]
        mark = s.mark()
        return m, s, before, mark

    def test_megabyte_payload_never_reaches_the_box(self):
        """The box connects with MQTT 5 and a maximum packet size of 32 KiB:
        the broker drops a 1 MB message for it instead of sending it, so it
        is never read into memory (libmosquitto reads a message whole)."""
        m, s, before, mark = self.linked_and_watched()
        rss0 = m.rss_kb()
        big = b'{"cmd":"status","pad":"' + b"x" * (1 << 20) + b'"}'
        s.publish(f"{m.prefix}/cmd", big)
        s.wait(lambda s: any(len(x.payload) == len(big) for x in s.messages(f"{m.prefix}/cmd", mark)), 10,
               "the broker to pass the 1 MB message on to a client that takes it")
        # a small command published after it is carried out: the big one was
        # dropped for the box, not queued ahead of it
        self.assertIs(s.request(m.prefix, {"cmd": "status"}).get("ok"), True)
        after = m.status()["mqtt"]
        self.assertEqual(after["received"], before["received"] + 1, f"the box received the 1 MB message: {after}")
        self.assertEqual(after["link"], "connected")
        self.assertEqual(s.messages(f"{m.prefix}/availability", mark), [], "the link dropped")
        self.assertEqual(len(m.log_lines("mqtt: connected to")), 1, m.log())
        self.assertLess(m.rss_kb() - rss0, 512, "the box's memory grew by the message")

    def test_broker_that_speaks_only_3_1_1(self):
        """A broker that refuses MQTT 5: the box says so once and connects
        again at once with 3.1.1, and everything works as before."""
        b = self.broker()
        proxy = h.Mqtt311OnlyProxy("127.0.0.1", b.port)
        self.addCleanup(proxy.close)
        m = self.member("kitchen", b, port=proxy.port)
        m.wait_link("connected", timeout=10)
        self.assertEqual(proxy.refused_v5, 1)
        self.assertEqual(len(m.log_lines("speaks MQTT 3.1.1, not 5")), 1, m.log())
        self.assertEqual(m.log_lines("cannot connect"), [], m.log())
        s = self.subscriber(b, topics=[f"{m.prefix}/#"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        self.assertIs(s.request(m.prefix, {"cmd": "start"}).get("ok"), True)
        self.assertEqual(m.status()["state"], "running")

    def test_invalid_utf8_and_unknown_ignored(self):
        m, s, before, mark = self.linked_and_watched()
        bad = [b'{"cmd":"st\xc3\x28tus"}', b"\xff" + b'{"cmd":"status"}', b'{"cmd":"bogus"}', b"status"]
        for payload in bad:
            s.publish(f"{m.prefix}/cmd", payload)
        h.wait_until(lambda: m.status()["mqtt"]["received"] >= before["received"] + len(bad), 5,
                     "tock to receive the payloads")
        time.sleep(1)
        self.assertEqual(s.texts(f"{m.prefix}/reply", mark), [], "a reply to a payload that is not a request")
        after = m.status()["mqtt"]
        self.assertEqual(after["ignored"] - before["ignored"], len(bad), after)
        self.assertEqual(after["link"], "connected")
        self.assertIs(s.request(m.prefix, {"cmd": "status"}).get("ok"), True)
        self.assertEqual(len(m.log_lines("mqtt: ignored")), 1, m.log())

    def test_wrong_password(self):
        b = self.broker()
        m = self.member("kitchen", b, password="wrong", presets=("10s",))
        h.wait_until(lambda: m.log_lines("refused the login"), 5, "a `refused the login` line",
                     detail=m.describe)
        # several retries (1, 2, 4 s apart) while we watch
        h.wait_until(lambda: b.log().count("not authorised") >= 3, 12, "three refused logins at the broker",
                     detail=lambda: h.tail(b.log_path))
        lines = m.log_lines("refused the login")
        self.assertEqual(len(lines), 1, "one line per state change, not per retry:\n" + "\n".join(lines))
        self.assertIn(f"mqtt: 127.0.0.1:{b.port} refused the login (not authorised); "
                      "check mqtt.username and mqtt.password_file", lines[0])
        self.assertNotEqual(m.link(), "connected")
        t0, t1, _ = self.start_on_socket(m)
        m.wait_state("ringing", timeout=12)
        self.assert_ticks(m, t0, t1, 10)

    def test_tls(self):
        b = self.broker(tls=True)
        m = self.member("kitchen", b, port=b.tls_port, tls={"ca_file": str(b.ca.cert)})
        m.wait_link("connected")
        self.assertTrue(m.log_lines(f"mqtt: connected to 127.0.0.1:{b.tls_port}"), m.log())
        s = self.subscriber(b, topics=[f"{m.prefix}/availability"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)
        self.assertIn(f"on port {b.tls_port}", b.log())
        self.assertIn("as kitchen", b.log())

    def test_tls_client_certificate(self):
        b = self.broker(tls=True, client_cert=True)
        crt, key = b.client_cert
        m = self.member("kitchen", b, port=b.tls_port,
                        tls={"ca_file": str(b.ca.cert), "cert_file": str(crt), "key_file": str(key)})
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/availability"])
        s.wait_value(f"{m.prefix}/availability", "online", 5)

    def test_tls_wrong_ca(self):
        b = self.broker(tls=True)
        other = h.CertAuthority(Path(self.tmp) / "other-ca", "Some Other CA")
        m = self.member("kitchen", b, port=b.tls_port, tls={"ca_file": str(other.cert)})
        h.wait_until(lambda: m.log_lines("cannot connect"), 6, "a `cannot connect` line",
                     detail=m.describe)
        time.sleep(4)  # a few retries
        lines = m.log_lines("cannot connect")
        self.assertEqual(len(lines), 1, "one line per state change, not per retry:\n" + "\n".join(lines))
        self.assertIn(f"mqtt: cannot connect to 127.0.0.1:{b.tls_port} (", lines[0])
        # clear = it says the broker's certificate did not verify (what to
        # fix: mqtt.tls.ca_file), not just that something in TLS failed
        self.assertRegex(lines[0], r"(?i)certificate|verif|ca_file", "the line should say it is the certificate")
        self.assertNotEqual(m.link(), "connected")
        self.assertEqual(m.log_lines("mqtt: connected to"), [])


# ======================================================================= group

class GroupTest(MqttCase):
    LEAD_MS = 250

    def group(self, names=("a", "b", "c"), preset="30s"):
        b = self.broker()
        members = [self.member(n, b, presets=(preset,), group={"name": "gym", "lead": f"{self.LEAD_MS}ms"})
                   for n in names]
        for m in members:
            m.wait_link("connected")
        return b, members

    def join(self, b, name, preset="30s"):
        m = self.member(name, b, presets=(preset,), group={"name": "gym", "lead": f"{self.LEAD_MS}ms"})
        m.wait_link("connected")
        return m

    def wait_all(self, members, state, timeout=3):
        h.wait_until(lambda: all(m.status()["state"] == state for m in members), timeout,
                     f"every member {state}", detail=lambda: "\n".join(m.describe() for m in members))

    def group_of(self, m):
        g = m.status().get("group")
        self.assertIsNotNone(g, f"{m.name}: no group in status {m.status()}")
        return g

    def assert_agree(self, members, from_=None):
        gs = {m.name: self.group_of(m) for m in members}
        ats = {g.get("at") for g in gs.values()}
        froms = {g.get("from") for g in gs.values()}
        self.assertEqual(len(ats), 1, f"group.at differs: {gs}")
        self.assertEqual(len(froms), 1, f"group.from differs: {gs}")
        for g in gs.values():
            self.assertEqual(g.get("name"), "gym")
            self.assertIsInstance(g.get("at"), int)
        if from_ is not None:
            self.assertEqual(froms, {from_})
        return next(iter(gs.values()))

    def test_start_in_step(self):
        b, members = self.group()
        watch = self.subscriber(b, topics=["tock/groups/gym"])
        t0 = h.mono_ns()
        wall0 = time.time_ns()
        r = members[0].request({"cmd": "start"})
        self.assertIs(r.get("ok"), True, r)
        self.wait_all(members, "running")
        g = self.assert_agree(members, from_="a")
        # the group message as docs/mqtt.md writes it
        msg = watch.wait_topic("tock/groups/gym", 3)
        body = json.loads(msg.payload)
        self.assertEqual((body["from"], body["at"], body["press"]), ("a", g["at"], "start"), body)
        self.assertIsInstance(body["state"], dict)
        # a group that has not spoken hears format 2: the program under its mode's name
        self.assertEqual(body.get("v"), 2, body)
        self.assertEqual(list(body["state"].get("program", {})), ["timer"], body)
        lead_ms = (g["at"] - wall0) / MS
        self.assertGreaterEqual(lead_ms, self.LEAD_MS - 5, f"at is only {lead_ms:.0f} ms after the press")
        self.assertLess(lead_ms, self.LEAD_MS + 200, f"at is {lead_ms:.0f} ms after the press")
        # first frame after the start on each member, from their timing logs
        firsts = {}
        for m in members:
            frames = h.wait_until(lambda: m.frames(after=t0), 4, f"a frame from {m.name} after the start")
            firsts[m.name] = frames[0]
        texts = {text for _, text in firsts.values()}
        self.assertEqual(texts, {"00:29"}, firsts)
        times = [t for t, _ in firsts.values()]
        skew_ms = (max(times) - min(times)) / MS
        # where `at` falls on CLOCK_MONOTONIC: the first frame is due 1 s later
        at_mono = g["at"] - time.time_ns() + h.mono_ns()
        late_ms = {n: (t - at_mono - S) / MS for n, (t, _) in firsts.items()}
        print(f"  group start skew {skew_ms:.2f} ms; first frame vs at+1s: "
              + ", ".join(f"{n} {v:+.1f} ms" for n, v in late_ms.items()), flush=True)
        self.assertLess(skew_ms, 50, f"first frames {skew_ms:.1f} ms apart")
        for n, v in late_ms.items():
            self.assertLess(abs(v), 50, f"{n}: first frame {v:+.1f} ms from at + 1 s")

    def test_stop_on_another_member(self):
        b, (a, bm, c) = self.group()
        self.assertIs(a.request({"cmd": "start"}).get("ok"), True)
        self.wait_all([a, bm, c], "running")
        time.sleep(1.3)
        r = bm.request({"cmd": "stop"})
        self.assertIs(r.get("ok"), True, r)
        self.wait_all([a, bm, c], "paused")
        self.assert_agree([a, bm, c], from_="b")
        displays = {m.name: m.status()["display"] for m in (a, bm, c)}
        self.assertEqual(len(set(displays.values())), 1, displays)
        remaining = {m.name: m.status()["remaining_ms"] for m in (a, bm, c)}
        self.assertLess(max(remaining.values()) - min(remaining.values()), 50, remaining)

    def test_late_member_takes_running_count(self):
        b, members = self.group()
        a = members[0]
        self.assertIs(a.request({"cmd": "start"}).get("ok"), True)
        self.wait_all(members, "running")
        time.sleep(2.2)
        d = self.join(b, "d")
        self.wait_all([d], "running", timeout=3)
        g = self.assert_agree(members + [d], from_="a")
        ra, rd = a.status()["remaining_ms"], d.status()["remaining_ms"]
        self.assertLess(abs(ra - rd), 100, f"a remaining {ra} ms, d {rd} ms")
        # d ticks in phase with the others
        h.wait_until(lambda: len(d.frames()) >= 3, 4, "frames from d")
        # d's first frame is the count as d found it when it joined, shown at
        # once; from its next change on d must tick with a
        joined = [f for f in changes(d.frames()) if f[1] != "00:30"][1:]
        # a's trace is read after d's: a shows each of those values at the
        # same instant, but its line may reach the file a moment later
        h.wait_until(lambda: {text for _, text in joined} <= {text for _, text in a.frames()}, 3,
                     "a's frames for the values d showed", detail=lambda: f"a {a.frames()} d {d.frames()}")
        fa = {text: t for t, text in a.frames()}
        pairs = [(text, (t - fa[text]) / MS) for t, text in joined if text in fa]
        self.assertTrue(pairs, f"no common frames: a {a.frames()} d {d.frames()}")
        off = [f"{text} {ms:+.1f} ms" for text, ms in pairs if abs(ms) >= 50]
        self.assertEqual(off, [], f"d's frames vs a's (group at {g['at']})")

    def test_presses_within_the_lead(self):
        b, (a, bm, c) = self.group()
        self.assertIs(a.request({"cmd": "start"}).get("ok"), True)
        self.wait_all([a, bm, c], "running")
        self.assertIs(a.request({"cmd": "stop"}).get("ok"), True)
        self.wait_all([a, bm, c], "paused")
        watch = self.subscriber(b, topics=["tock/groups/gym"])
        # Start on a and Reset on b at once: both inside one lead
        go = threading.Barrier(2)
        results = {}

        def press(m, cmd):
            go.wait(2)
            results[m.name] = (h.mono_ns(), m.request({"cmd": cmd}))
        threads = [threading.Thread(target=press, args=(a, "start")), threading.Thread(target=press, args=(bm, "reset"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(5)
        gap_ms = abs(results["a"][0] - results["b"][0]) / MS
        self.assertLess(gap_ms, self.LEAD_MS, "the two presses were not within the lead")
        time.sleep((self.LEAD_MS + 600) / 1000)
        states = {m.name: m.status() for m in (a, bm, c)}
        self.assertEqual(len({s["state"] for s in states.values()}), 1,
                         {n: s["state"] for n, s in states.items()})
        self.assertEqual(len({s["display"] for s in states.values()}), 1,
                         {n: s["display"] for n, s in states.items()})
        g = self.assert_agree([a, bm, c])
        # the retained group message is the winner every member applied
        retained = self.subscriber(b, topics=["tock/groups/gym"]).wait_topic("tock/groups/gym", 3)
        body = json.loads(retained.payload)
        self.assertEqual((body["at"], body["from"]), (g["at"], g["from"]),
                         f"retained {body['from']}@{body['at']} vs applied {g}; seen: "
                         + str([json.loads(x.payload)["from"] for x in watch.messages()]))
        print(f"  presses {gap_ms:.1f} ms apart; winner {g['from']} ({body['press']}), all "
              f"{states['a']['state']}", flush=True)

    def test_hostile_group_messages(self):
        """Well-formed but hostile changes on the group topic: instants and
        durations at the edge of Int64 (retained, so delivered again at every
        restart) and a flood of changes dated an hour ahead. No member stops
        or freezes: the edge ones are refused, the flood is counted from its
        arrival (as a member's press with a wrong clock is; the topic's ACL
        is what keeps strangers off it), at most 16 wait at once, and a real
        press afterwards is applied in step and wins."""
        b, members = self.group(names=("a", "b"))
        intruder = self.subscriber(b, topics=["tock/groups/gym"])
        ready = {"mode": "timer", "phase": {"ready": {}}, "presets": [30 * S], "presetIndex": 0, "direction": "down"}
        edge = dict(ready, phase={"running": {"since": -(2 ** 63), "before": 2 ** 63 - 1}})
        for state, at in ((ready, 2 ** 63 - 1), (edge, time.time_ns() + 100 * MS), (dict(ready, presets=[2 ** 63 - 1]), 1)):
            intruder.publish("tock/groups/gym", json.dumps({"from": "x", "at": at, "press": "start", "state": state}).encode(),
                             retain=True)
        hour = time.time_ns() + 3600 * S
        for i in range(40):
            intruder.publish("tock/groups/gym", json.dumps({"from": f"x{i}", "at": hour + i, "press": "start",
                                                            "state": dict(ready, presets=[60 * S])}).encode())
        time.sleep(0.1)
        for m in members:
            self.assertLessEqual(m.status()["group"]["pending"], 16, m.describe())
        time.sleep(0.5)
        for m in members:
            self.assertTrue(m.running, m.describe())
            self.assertEqual(m.status()["group"]["pending"], 0, m.describe())
            self.assertEqual(m.status()["state"], "ready")
            self.assertTrue(m.log_lines("ahead of this box's clock"), m.log())
        self.assertIs(members[1].request({"cmd": "start"}).get("ok"), True)
        self.wait_all(members, "running")
        self.assert_agree(members, from_="b")
        # the hostile message is retained: a restarted member gets it again
        intruder.publish("tock/groups/gym", json.dumps({"from": "x", "at": 2 ** 63 - 1, "press": "start", "state": edge}).encode(),
                         retain=True)
        members[0].stop()
        members[0].start()
        members[0].wait_link("connected")
        time.sleep(0.5)
        self.assertTrue(members[0].running, members[0].describe())
        self.assertTrue(members[0].log_lines("is not a group change"), members[0].log())

    def test_wrong_wall_clocks(self):
        """Members whose wall clock is wrong (fakeclock.c, preloaded: as a
        box that booted without NTP) by 30 s, 1 h or 1 day, ahead or
        behind, then corrected (stepped) before or after a press, on one
        member or on two. After each correction every press, the member's
        own and the others', acts on all three, the last press wins, the
        paused counts agree, and no stale press is ever sent again."""
        b = self.broker()
        group = {"name": "gym", "lead": f"{self.LEAD_MS}ms"}
        clocks = {n: h.FakeClock(self.tmp, n) for n in ("a", "b")}
        a = self.member("a", b, presets=("30s",), group=group, env=clocks["a"].env(self.tmp))
        bm = self.member("b", b, presets=("30s",), group=group, env=clocks["b"].env(self.tmp))
        c = self.member("c", b, presets=("30s",), group=group)
        members = [a, bm, c]
        for m in members:
            m.wait_link("connected")
        watch = self.subscriber(b, topics=["tock/groups/gym"])
        sent = {n: 0 for n in ("a", "b", "c")}

        def press(m, cmd, state):
            self.assertIs(m.request({"cmd": cmd}).get("ok"), True, f"{m.name} {cmd}")
            sent[m.name] += 1
            self.wait_all(members, state)

        day = 86400
        scenarios = ([(s, ("a",), "after") for s in (30, 3600, day, -30, -3600, -day)]
                     + [(s, ("a",), "before") for s in (3600, -day)]
                     + [(s, ("a", "b"), "after") for s in (30, -3600, day)])
        for skew, wrong, when in scenarios:
            with self.subTest(skew=skew, wrong=wrong, when=when):
                for i, n in enumerate(wrong):
                    clocks[n].set((1 if i == 0 else -1) * skew * S)
                mark = watch.mark()
                press(a if when == "after" else c, "start", "running")  # dated by a wrong clock, or read by one
                if when == "after":  # the shim works: a dated its press by its wrong clock
                    at = json.loads(watch.wait(lambda w: w.messages(since=mark), 3, "a's press")[0].payload)["at"]
                    self.assertAlmostEqual((at - time.time_ns()) / S, skew, delta=2)
                if len(wrong) == 2:
                    press(bm, "stop", "paused")  # b wrong the other way
                    press(bm, "start", "running")
                for n in wrong:
                    clocks[n].set(0)  # NTP answers
                press(a, "stop", "paused")  # its own press acts on it, and on the others
                press(bm, "reset", "ready")
                press(c, "start", "running")
                time.sleep(1.2)
                press(a, "stop", "paused")
                remaining = {m.name: m.status()["remaining_ms"] for m in members}
                self.assertLess(max(remaining.values()) - min(remaining.values()), 50, remaining)
                press(bm, "reset", "ready")
                self.assert_agree(members, from_="b")
        # Long after the last press (a Reset), nothing stale lands, and each
        # member sent each press once: nothing again.
        time.sleep(2)
        self.assertEqual({m.name: m.status()["state"] for m in members}, {"a": "ready", "b": "ready", "c": "ready"})
        froms = [json.loads(x.payload)["from"] for x in watch.messages() if not x.retain]
        self.assertEqual({n: froms.count(n) for n in sent}, sent)
        for m in members:
            self.assertEqual(m.log_lines("again"), [], m.log())
        # Every disagreement was logged, at most one line a minute.
        self.assertEqual(len(c.log_lines("this box's clock: one of the two clocks is wrong")), 1, c.log())

    def test_losing_press_arrives_last(self):
        """The press that loses (the smaller `at`) reaches the broker last,
        from a member on a slow link: the retained message must still end as
        the winner, or a member joining later would take the loser's state."""
        b = self.broker()
        proxy = h.SlowProxy("127.0.0.1", b.port, delay=0.15, chunk=65536)
        self.addCleanup(proxy.close)
        group = {"name": "gym", "lead": f"{self.LEAD_MS}ms"}
        a = self.member("a", b, presets=("30s",), port=proxy.port, group=group)
        bm = self.member("b", b, presets=("30s",), group=group)
        c = self.member("c", b, presets=("30s",), group=group)
        for m in (a, bm, c):
            m.wait_link("connected", timeout=20)
        # paused, so that both Start and Reset change something
        self.assertIs(c.request({"cmd": "start"}).get("ok"), True)
        self.wait_all([a, bm, c], "running")
        self.assertIs(c.request({"cmd": "stop"}).get("ok"), True)
        self.wait_all([a, bm, c], "paused")
        watch = self.subscriber(b, topics=["tock/groups/gym"])
        watch.wait_topic("tock/groups/gym", 3)  # c's retained stop
        mark = watch.mark()
        # a presses Start; 30 ms later b presses Reset: b's `at` is later and
        # wins, but a's message is still in the slow link when b's arrives
        self.assertIs(a.request({"cmd": "start"}).get("ok"), True)
        time.sleep(0.03)
        self.assertIs(bm.request({"cmd": "reset"}).get("ok"), True)
        watch.wait(lambda s: len(s.messages(since=mark)) >= 2, 3, "both group messages at the broker")
        time.sleep((self.LEAD_MS + 600) / 1000)
        order = [json.loads(x.payload)["from"] for x in watch.messages(since=mark)]
        g = self.assert_agree([a, bm, c], from_="b")
        states = {m.name: m.status()["state"] for m in (a, bm, c)}
        self.assertEqual(len(set(states.values())), 1, states)
        print(f"  group messages reached the broker in the order {order}; all {states['a']}", flush=True)
        d = self.join(b, "d")
        time.sleep(0.5)
        gd = self.group_of(d)
        self.assertEqual((gd.get("at"), gd.get("from"), d.status()["state"]), (g["at"], g["from"], states["a"]),
                         f"the late member took {gd} (state {d.status()['state']}); the group applied {g}")


# ======================================================================= runner

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tock", nargs="?", help="the tock binary (default: .build/debug/tock)")
    ap.add_argument("-k", action="append", default=[], help="run only tests whose name contains this")
    args = ap.parse_args(argv)
    if args.tock:
        h.TOCK = os.path.abspath(args.tock)
    loader = unittest.TestLoader()
    if args.k:
        loader.testNamePatterns = [f"*{k}*" for k in args.k]
    tests = []

    def flatten(suite):
        for t in suite:
            if isinstance(t, unittest.TestSuite):
                flatten(t)
            else:
                tests.append(t)
    flatten(loader.loadTestsFromModule(sys.modules[__name__]))
    # The log's flood test lives in its own module; it takes MqttCase from
    # this one (the same module object, not a second copy).
    sys.modules.setdefault("test_mqtt", sys.modules[__name__])
    import test_log
    flatten(loader.loadTestsFromModule(test_log))
    import test_update
    flatten(loader.loadTestsFromModule(test_update))

    passed = failed = skipped = 0
    started = time.monotonic()
    bystander_dir = tempfile.mkdtemp(prefix="tock-mqtt-bystander-")
    h.BYSTANDER = h.Bystander(bystander_dir)
    try:
        for test in tests:
            name = f"{type(test).__name__}.{test._testMethodName}"
            print(f"-- {name}", flush=True)
            result = unittest.TestResult()
            t = time.monotonic()
            test.run(result)
            took = time.monotonic() - t
            problems = result.failures + result.errors
            if problems:
                failed += 1
                print(f"FAIL {name} ({took:.1f} s)")
                for _, tb in problems:
                    print("   " + tb.rstrip().replace("\n", "\n   "))
                for label, path in h.ARTIFACTS:
                    print(f"   --- {label} ({path}), last lines:")
                    print("   " + h.tail(path, 12).replace("\n", "\n   "))
            elif result.skipped:
                skipped += 1
                print(f"skip {name}: {result.skipped[0][1]}")
            else:
                passed += 1
                print(f"ok   {name} ({took:.1f} s)")
            sys.stdout.flush()
            remove_leftovers()
    except KeyboardInterrupt:
        traceback.print_exc()
        failed += 1
    finally:
        h.kill_all()
        remove_leftovers()
        shutil.rmtree(bystander_dir, True)
    total = time.monotonic() - started
    print(f"mqtt: {passed} passed, {failed} failed ({total:.0f} s)")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
