"""The page in a real headless browser (Debian's chromium driven by
Playwright) against a mock box and tock-web on loopback.

Usage: browser_test.py TOCK TOCK_WEB [CHROMIUM]"""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
from harness import Box  # noqa: E402

TOCK, TOCK_WEB = sys.argv[1], sys.argv[2]
CHROMIUM = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/chromium"


class BrowserTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pw = sync_playwright().start()
        cls.browser = cls.pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.pw.stop()

    def setUp(self):
        self.box = Box(TOCK, TOCK_WEB)
        self.context = self.browser.new_context()
        self.page = self.context.new_page()

    def tearDown(self):
        self.context.close()
        self.box.stop()

    def pair_in_page(self):
        page = self.page
        page.goto(self.box.url)
        expect(page.locator("#pairing")).to_be_visible()
        expect(page.locator("#app")).to_be_hidden()
        page.click("#ask")
        expect(page.locator("#pair-message")).to_contain_text("shows a code")
        code = self.box.status()["display"]  # read off the box's display
        self.assertRegex(code, r"^\d{4}$")
        page.fill("#code", code)
        page.click("#pair-form button")
        expect(page.locator("#app")).to_be_visible()
        self.assertNotEqual(self.box.status()["display"], code, "the code comes down once paired")

    def test_pair_start_add_an_alarm_revoke(self):
        self.pair_in_page()
        page = self.page
        display = page.locator("#display")
        expect(display).to_have_attribute("data-text", "02:00")
        # Drawn from the segment bits: as many lit segments as bits set.
        self.assertEqual(page.locator("#display polygon.on").count(), sum(bin(b & 0x7F).count("1") for b in self.box.status()["segments"]))
        page.click("text=Start")
        # The page's display follows the box's within a second of the box's own change.
        shown = self.box.wait_for_display(lambda d: d != "02:00")
        expect(display).to_have_attribute("data-text", shown, timeout=1000)
        shown = self.box.wait_for_display(lambda d: d not in ("02:00", shown))
        expect(display).to_have_attribute("data-text", shown, timeout=1000)
        self.assertEqual(self.box.status()["state"], "running")
        page.fill("#alarm-at", "06:45")
        page.fill("#alarm-label", "gym")
        page.click("#alarm-form button")
        expect(page.locator("#alarms li")).to_have_count(1)
        self.assertIn("06:45", self.box.cli("alarm", "list"))
        self.assertIn("gym", self.box.cli("alarm", "list"))
        listed = subprocess.run([TOCK_WEB, "tokens", "--tokens", self.box.tokens], capture_output=True, text=True, check=True).stdout
        self.assertEqual(len(listed.strip().splitlines()), 1)
        # Revoked from the page: the page shows the pairing form, the cookie is refused.
        token = next(c["value"] for c in self.context.cookies() if c["name"] == "tock_token")
        expect(page.locator("#tokens li")).to_have_count(1)
        page.click("#tokens button")
        expect(page.locator("#pairing")).to_be_visible()
        status, _ = self.box.http("GET", "/api/status", headers={"Cookie": f"tock_token={token}"})
        self.assertEqual(status, 401)
        page.reload()
        expect(page.locator("#pairing")).to_be_visible()

    def test_switch_brightness_night_and_program(self):
        self.pair_in_page()
        page = self.page
        # The switch: as the lever does (count up from zero to the preset), and back.
        page.click("#switch-up")
        expect(page.locator("#switch-up")).to_have_attribute("aria-pressed", "true")
        status = self.box.status()
        self.assertEqual((status["switch"], status["display"], status["state"]), ("up", "00:00", "ready"))
        expect(page.locator("#display")).to_have_attribute("data-text", "00:00")
        page.click("#switch-down")
        expect(page.locator("#switch-down")).to_have_attribute("aria-pressed", "true")
        self.assertEqual((self.box.status()["switch"], self.box.status()["display"]), ("down", "02:00"))
        # A flip made elsewhere (the command line) reaches the page through the live events.
        self.box.cli("switch", "up")
        expect(page.locator("#switch-up")).to_have_attribute("aria-pressed", "true")
        self.box.cli("switch", "down")
        expect(page.locator("#switch-down")).to_have_attribute("aria-pressed", "true")
        # Brightness and the night schedule, read back with tock brightness / tock night.
        page.locator("#brightness").fill("3")
        expect(page.locator("#brightness-value")).to_have_text("3")
        self.assertEqual(self.box.status()["brightness"], 3)
        self.assertIn("brightness 3", self.box.cli("brightness"))
        page.fill("#night-from", "22:00")
        page.fill("#night-to", "07:00")
        page.select_option("#night-level", "2")
        page.click("#night-form button[type=submit]")
        expect(page.locator("#night-text")).to_have_text("Night 22:00 to 07:00 at 2")
        self.assertEqual(self.box.status()["night"], {"from": "22:00", "to": "07:00", "brightness": 2})
        self.assertIn("night 22:00-07:00 at 2", self.box.cli("night"))
        page.click("#night-off")
        expect(page.locator("#night-text")).to_have_text("No night schedule")
        self.assertNotIn("night", self.box.status())
        # A bad value from a script is refused with what to fix, and changes nothing.
        token = next(c["value"] for c in self.context.cookies() if c["name"] == "tock_token")
        status, reply = self.box.http("POST", "/api/brightness", {"level": 99}, headers={"Cookie": f"tock_token={token}"})
        self.assertEqual(status, 400)
        self.assertIn("0 (dimmest lit) to 7", reply["error"])
        self.assertEqual(self.box.status()["brightness"], 3)
        # The interval program: interval mode, then a program from the list the box has.
        expect(page.locator("#program-row")).to_be_hidden()
        page.select_option("#mode", "interval")
        expect(page.locator("#program-row")).to_be_visible()
        self.assertEqual(self.box.status()["mode"], "interval")
        expect(page.locator("#program option")).to_have_count(2)
        page.select_option("#program", "E1")
        expect(page.locator("#program")).to_have_value("E1")
        self.assertEqual(self.box.status()["program"], "E1")
        self.assertIn("program E1", self.box.cli("status"))

    def test_revoked_from_the_command_line(self):
        self.pair_in_page()
        entry = json.load(open(self.box.tokens))[0]
        subprocess.run([TOCK_WEB, "revoke", entry["id"], "--tokens", self.box.tokens], check=True, capture_output=True)
        self.assertEqual(self.box.http("POST", "/api/start", headers={"Cookie": f"tock_token={entry['token']}"})[0], 401)
        self.assertEqual(self.box.status()["state"], "ready")

    def test_a_wrong_code_is_refused_and_rate_limited(self):
        page = self.page
        page.goto(self.box.url)
        page.click("#ask")
        expect(page.locator("#pair-message")).to_contain_text("shows a code")
        code = self.box.status()["display"]
        wrong = f"{(int(code) + 1) % 10000:04d}"
        page.fill("#code", wrong)
        page.click("#pair-form button")
        expect(page.locator("#pair-message")).to_contain_text("wrong code")
        expect(page.locator("#app")).to_be_hidden()
        statuses = [self.box.http("POST", "/api/pair", {"code": wrong})[0] for _ in range(4)]
        self.assertEqual(statuses, [403, 403, 403, 429])
        self.assertEqual(self.box.http("POST", "/api/pair", {"code": code})[0], 429, "locked: the right code too")
        self.assertNotIn("notice", self.box.status(), "the code came down")
        self.assertEqual(json.load(open(self.box.tokens)) if os.path.exists(self.box.tokens) else [], [])

    def test_cross_origin_and_tokenless_requests_change_nothing(self):
        token = self.box.pair()
        cookie = {"Cookie": f"tock_token={token}"}
        # A page on another site posting to the box (the browser adds Origin).
        status, reply = self.box.http("POST", "/api/start", headers={**cookie, "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
        self.assertEqual(status, 403, reply)
        self.assertEqual(self.box.status()["state"], "ready")
        # The same from a real browser page on another origin: refused (its cookie is withheld as well).
        other = self.context.new_page()
        other.goto("about:blank")
        result = other.evaluate("""url => fetch(url + '/api/start', {method: 'POST', mode: 'no-cors', credentials: 'include'})
                                   .then(() => 'sent', () => 'failed')""", self.box.url)
        self.assertIn(result, ("sent", "failed"))
        self.assertEqual(self.box.status()["state"], "ready")
        for method, path, body in [("POST", "/api/start", None), ("POST", "/api/mode", {"mode": "stopwatch"}),
                                   ("POST", "/api/alarms", {"at": "07:00"}), ("DELETE", "/api/tokens/x", None)]:
            self.assertEqual(self.box.http(method, path, body)[0], 401, path)
        status = self.box.status()
        self.assertEqual((status["state"], status["mode"], status["alarms"]), ("ready", "timer", []))
        self.assertEqual(self.box.http("POST", "/api/start", headers=cookie)[0], 200)

    def test_killing_the_web_process_leaves_the_count_untouched(self):
        token = self.box.pair()
        self.assertEqual(self.box.http("POST", "/api/start", headers={"Cookie": f"tock_token={token}"})[0], 200)
        before = self.box.status()
        self.box.web.send_signal(signal.SIGKILL)
        self.box.web.wait()
        after = self.box.status()
        self.assertIsNone(self.box.appliance.poll(), "the appliance still runs")
        self.assertEqual(after["state"], "running")
        self.assertLessEqual(after["remaining_ms"], before["remaining_ms"])
        self.assertGreater(after["remaining_ms"], before["remaining_ms"] - 5000)
        # A new tock-web picks up where the old one was: the same token, the same count.
        self.box.start_web()
        status, reply = self.box.http("GET", "/api/status", headers={"Cookie": f"tock_token={token}"})
        self.assertEqual((status, reply["state"]), (200, "running"))


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
