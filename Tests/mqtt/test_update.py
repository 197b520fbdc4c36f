"""The update entity against a real mosquitto (docs/updates.md, "What
version runs, and what is available"): the daily check's own program
(deploy/update/tock-update-check) writes its result beside a running
tock's state file, `update-checked` on the command topic makes tock read
it, and `<prefix>/update` carries Home Assistant's update state, retained:
no repository said as such (never "up to date"), a newer version with both
versions, a file that is not the check's refused and logged once.

Loaded by test_mqtt.py's runner (`make mqtt-test`, or
`bash Tests/mqtt/run.sh -k update`)."""

import json
import os
import subprocess
import time
from pathlib import Path

from test_mqtt import MqttCase, discovery_topic

CHECK = Path(__file__).resolve().parents[2] / "deploy" / "update" / "tock-update-check"


class UpdateTest(MqttCase):
    def test_update_entity_follows_the_check(self):
        b = self.broker()
        m = self.member("kitchen", b)
        m.wait_link("connected")
        s = self.subscriber(b, topics=[f"{m.prefix}/#", "homeassistant/update/#"])
        topic = f"{m.prefix}/update"
        config = json.loads(s.wait_topic(discovery_topic("update", "kitchen", "update")).payload)
        self.assertNotIn("command_topic", config, "Home Assistant would offer Install")
        self.assertEqual(config["state_topic"], topic)
        first = json.loads(s.wait_topic(topic).payload)
        self.assertNotIn("latest_version", first)
        self.assertTrue(first["release_summary"].startswith("Not checked yet"), first)

        # The check itself, on a box whose sources name the image's placeholder.
        sources = Path(self.tmp) / "tock.sources"
        sources.write_text("Types: deb\nURIs: https://tock.invalid/debian\nSuites: stable\nComponents: main\n"
                           "Signed-By: /usr/share/keyrings/tock-archive-keyring.pgp\n")
        env = dict(os.environ, TOCK_UPDATE_SOURCES=str(sources), TOCK_UPDATE_RESULT=str(m.dir / "update-check.json"),
                   TOCK_UPDATE_WORK=str(Path(self.tmp) / "check"), TOCK_UPDATE_INSTALLED="0.1.0")
        out = subprocess.run([str(CHECK)], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        mark = s.mark()
        r = s.request(m.prefix, {"cmd": "update-checked"})
        self.assertIs(r.get("ok"), True, r)
        self.assertEqual(r["update"]["result"], "no_repository", r)
        now = json.loads(s.wait_topic(topic, since=mark).payload)
        self.assertNotIn("latest_version", now, "no repository must not read as up to date")
        self.assertEqual(now["installed_version"], "0.1.0")
        self.assertIn("No repository configured", now["release_summary"])
        self.assertIn("tock.invalid", now["release_summary"])

        # A newer version (as the check writes it when dpkg says so).
        (m.dir / "update-check.json").write_text(
            '{"v":1,"checked":"2026-11-27T03:00:00Z","result":"available","installed":"0.1.0","latest":"1:0.0.1"}\n')
        mark = s.mark()
        s.request(m.prefix, {"cmd": "update-checked"})
        now = json.loads(s.wait_topic(topic, since=mark).payload)
        self.assertEqual((now["installed_version"], now["latest_version"]), ("0.1.0", "1:0.0.1"))
        self.assertTrue(s.last(topic).retain or json.loads(self.subscriber(b, topics=[topic]).wait_topic(topic).payload) == now)

        # Not the check's: 2 KB, then a version of 100 characters; each
        # said once in the log however often update-checked comes.
        for junk in ("x" * 2048, '{"v":1,"checked":"2026-11-27T03:00:00Z","result":"available","latest":"' + "9" * 100 + '"}'):
            (m.dir / "update-check.json").write_text(junk)
            mark = s.mark()
            for _ in range(20):
                s.publish(f"{m.prefix}/cmd", json.dumps({"cmd": "update-checked"}))
            s.wait(lambda s: len(s.messages(f"{m.prefix}/reply", mark)) >= 20, 10, "20 replies")
            now = json.loads(s.last(topic).payload)
            self.assertTrue(now["release_summary"].startswith("Not checked yet"), now)
        time.sleep(0.5)
        lines = [l for l in m.log().splitlines() if "update check: " in l]
        self.assertEqual(len(lines), 2, lines)
        self.assertIn("too large", lines[0].lower())
        self.assertIn('"latest" must be a Debian version of at most 64', lines[1])
