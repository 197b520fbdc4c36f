"""The page's Timers card in a real headless browser (Debian's chromium
driven by Playwright) against a mock box and tock-web on loopback: what
the page shows is checked against the box (`tock status`, the control
socket), and every refusal against the box's own sentence.

Usage: timers_test.py TOCK TOCK_WEB [CHROMIUM]"""
import json
import os
import re
import socket
import sys
import time
import unittest

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
import browser_test  # noqa: E402
from harness import Box  # noqa: E402

TOCK, TOCK_WEB, CHROMIUM = browser_test.TOCK, browser_test.TOCK_WEB, browser_test.CHROMIUM


def clock(text):
    """Seconds of an `m:ss` or `h:mm:ss` text."""
    s = 0
    for part in text.split(":"):
        s = s * 60 + int(part)
    return s


class TimersTest(browser_test.ChromiumCase):
    pair_in_page = browser_test.BrowserTest.pair_in_page

    def setUp(self):
        self.box = Box(TOCK, TOCK_WEB)
        self.context = self.phone_context()
        self.context.add_init_script("navigator.vibrate = (p) => { (window.vibrated = window.vibrated || []).push(p); return true; };"
                                       "window.p = () => { window.pwned = 1; };")
        self.page = self.context.new_page()

    def tearDown(self):
        self.context.close()
        self.box.stop()

    def box_says(self, request):
        """The control socket's reply to one request: the box's own words."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(5)
            s.connect(self.box.socket)
            s.sendall(json.dumps(request).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return json.loads(data)

    def timers(self):
        return {t["name"]: t for t in self.box.status()["timers"]}

    def add_in_page(self, name, duration):
        self.page.fill("#timer-name", name)
        self.page.fill("#timer-duration", duration)
        self.page.click("#timer-form button")

    def row(self, name):
        return self.page.locator(f'#timers li[data-name="{name}"]')

    def refused_like_the_box(self, name, duration, field):
        """Add in the page; the line under the form says what the box says, the field it concerns
        marked (none for the ninth timer: neither field is wrong)."""
        self.add_in_page(name, duration)
        said = self.box_says({"cmd": "timer", "op": "add", "name": name, "duration": duration})
        self.assertFalse(said["ok"])
        expect(self.page.locator("#timer-error")).to_have_text(said["error"])
        for f in ("timer-name", "timer-duration"):
            if f == field:
                expect(self.page.locator(f"#{f}")).to_have_attribute("aria-invalid", "true")
            else:
                expect(self.page.locator(f"#{f}")).not_to_have_attribute("aria-invalid", "true")
        return said["error"]

    def test_add_two_see_them_count_pause_one_cancel_one_and_refusals(self):
        self.pair_in_page()
        page = self.page
        expect(page.locator("#timers-none")).to_be_visible()
        self.add_in_page("EGG", "6m")
        expect(self.row("EGG")).to_have_count(1)
        expect(page.locator("#timer-error")).to_be_empty()
        self.add_in_page("RICE", "10m")
        expect(page.locator("#timers li")).to_have_count(2)
        expect(page.locator("#timers-none")).to_be_hidden()
        self.assertEqual(set(self.timers()), {"EGG", "RICE"})
        self.assertRegex(self.box.cli("timer", "list"), r"(?s)EGG.*RICE")
        # Listed with their time left, counting down on the page between events.
        egg = self.row("EGG").locator(".left")
        first = clock(egg.inner_text())
        self.assertTrue(355 <= first <= 360, first)
        # It counts on the page between events; what it shows lies between what the box says
        # just before and just after the page is read (whole seconds, rounded either way).
        page.wait_for_function("""(first) => document.querySelector('#timers li[data-name="EGG"] .left').textContent !== first""",
                               arg=egg.inner_text(), timeout=10000)
        before = self.timers()["EGG"]["remaining_ms"]
        later = clock(egg.inner_text())
        after = self.timers()["EGG"]["remaining_ms"]
        self.assertLess(later, first)
        self.assertTrue(after // 1000 - 1 <= later <= before // 1000 + 1, (before, later, after))
        # The one on the display (EGG ends soonest) is marked, and said.
        self.assertTrue(self.timers()["EGG"]["shown"])
        expect(self.row("EGG")).to_have_class(re.compile(r"\bshown\b"))
        expect(self.row("EGG").locator("small")).to_contain_text("on the display")
        expect(self.row("RICE")).not_to_have_class(re.compile(r"\bshown\b"))
        # Pause EGG: paused on the box, the page stops counting it.
        page.get_by_role("button", name="Pause EGG").click()
        expect(self.row("EGG")).to_have_attribute("data-state", "paused")
        self.assertEqual(self.timers()["EGG"]["state"], "paused")
        held = egg.inner_text()
        page.wait_for_timeout(1200)
        self.assertEqual(egg.inner_text(), held)
        expect(page.get_by_role("button", name="Resume EGG")).to_be_visible()
        # Cancel RICE.
        page.get_by_role("button", name="Cancel RICE").click()
        expect(self.row("RICE")).to_have_count(0)
        self.assertEqual(set(self.timers()), {"EGG"})
        # Refusals in the box's words, under the form, the field marked.
        self.refused_like_the_box("kale", "1m", "timer-name")
        self.refused_like_the_box("EGG", "1m", "timer-name")
        self.refused_like_the_box("OVEN", "100h", "timer-duration")
        self.refused_like_the_box("ABCDEFGHIJKLMNOP", "1m", "timer-name")
        # A good add clears the line and the marks.
        self.add_in_page("PIE", "1h")
        expect(page.locator("#timer-error")).to_be_empty()
        expect(page.locator("#timer-name")).not_to_have_attribute("aria-invalid", "true")
        # Eight in all (six more from the command line reach the page through the events), then a ninth.
        for n in ["A", "b", "C", "d", "F", "H"]:
            self.box.cli("timer", "add", n, "5m")
        expect(page.locator("#timers li")).to_have_count(8)
        said = self.refused_like_the_box("L", "1m", None)
        self.assertIn("8 timers are the most", said)
        self.assertEqual(len(self.timers()), 8)
        # Nothing overflows a phone's width.
        self.assertLessEqual(page.evaluate("document.documentElement.scrollWidth"), 360)

    def test_a_timer_rings_on_the_page_and_silence_silences_it(self):
        self.pair_in_page()
        page = self.page
        self.add_in_page("BEEP", "2s")
        expect(self.row("BEEP")).to_have_attribute("data-state", "ringing", timeout=5000)
        expect(self.row("BEEP")).to_have_class(re.compile(r"\bring\b"))
        expect(page.locator("#ringing")).to_be_visible()
        expect(page.locator("#ring-text")).to_have_text("BEEP: time's up")
        expect(page).to_have_title(re.compile("BEEP"))
        self.assertEqual(self.timers()["BEEP"]["state"], "ringing")
        self.assertTrue(page.evaluate("(window.vibrated || []).length > 0"))
        red = page.evaluate("getComputedStyle(document.querySelector('#timers li.ring')).backgroundColor")
        self.assertNotIn(red, ("rgba(0, 0, 0, 0)", "transparent"))
        page.get_by_role("button", name="Silence BEEP").click()
        expect(self.row("BEEP")).to_have_attribute("data-state", "done")
        expect(page.locator("#ringing")).to_be_hidden()
        self.assertEqual(self.timers()["BEEP"]["state"], "done")
        self.assertEqual(self.box.status()["state"], "ready", "the box's own count untouched")

    def test_extremes_and_names_that_are_markup(self):
        self.pair_in_page()
        page = self.page
        # The longest timer: 99h59m, drawn as hours.
        self.add_in_page("OVEN", "99h59m")
        left = self.row("OVEN").locator(".left")
        expect(left).to_have_text(re.compile(r"^99:5[89]:\d\d$"))
        self.assertEqual(self.timers()["OVEN"]["duration"], "99h59m")
        # Names that are markup, quotes, unicode: refused by the box, its sentence shown as text.
        for name in ["<b>x</b>", "<svg/onload=p()>", '"EGG"', "Ei 🥚", "' OR 1=1"]:
            self.add_in_page(name, "1m")
            said = self.box_says({"cmd": "timer", "op": "add", "name": name, "duration": "1m"})["error"]
            expect(page.locator("#timer-error")).to_have_text(said)
        self.assertEqual(page.locator("#timer-error b, #timer-error svg, #timers b b, #timers svg").count(), 0)
        self.assertIsNone(page.evaluate("window.pwned"))
        # A drawable name of signs, as typed.
        self.add_in_page("-_-", "1m")
        expect(self.row("-_-").locator("b")).to_have_text("-_-")
        self.assertEqual(set(self.timers()), {"OVEN", "-_-"})


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
