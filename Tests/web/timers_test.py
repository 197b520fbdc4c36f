"""The page's Timers card and its "+1 min" buttons in a real headless
browser (Debian's chromium driven by Playwright) against a mock box and
tock-web on loopback: what the page shows is checked against the box
(`tock status`, the control socket), and every refusal against the box's
own sentence.

Usage: timers_test.py TOCK TOCK_WEB [CHROMIUM]"""
import concurrent.futures
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


    # "+1 min" (docs/web.md, Adding time): the box's own count and each extra timer.

    def token(self):
        return next(c["value"] for c in self.context.cookies() if c["name"] == "tock_token")

    def until(self, ok, what):
        """The box's status once `ok` holds for it (the box's time, read over the socket)."""
        self.box.wait(lambda: ok(self.box.status()), what, seconds=10)
        return self.box.status()

    @staticmethod
    def length(s):
        """The count's length in ms from one status: elapsed + left, each truncated to the ms
        on its own (so the sum is the length or 1 ms under it)."""
        n = s["elapsed_ms"] + s["remaining_ms"]
        return n + 1 if n % 1000 == 999 else n

    def shown_seconds(self):
        """The page's display as seconds (m:ss on the box's 4 digits)."""
        return clock(self.page.locator("#display").get_attribute("data-text"))

    def test_plus_one_minute_on_the_box_count_and_on_a_timer(self):
        self.pair_in_page()
        page = self.page
        plus = page.locator("#add-minute")
        expect(plus).to_be_hidden()  # ready: nothing to add to
        # Paused: the box's figure stands still, so the minute is exact.
        page.click("#start")
        expect(plus).to_be_visible()
        page.click("#stop")
        before = self.until(lambda s: s["state"] == "paused", "the count paused")
        expect(page.locator("#display")).to_have_attribute("data-text", before["display"])
        self.assertEqual(before["display"], "02:00")
        plus.click()
        after = self.until(lambda s: s["remaining_ms"] != before["remaining_ms"], "the minute added")
        self.assertEqual(after["remaining_ms"], before["remaining_ms"] + 60_000)
        self.assertEqual(after["elapsed_ms"], before["elapsed_ms"])
        self.assertEqual(after["state"], "paused")
        expect(page.locator("#display")).to_have_attribute("data-text", "03:00")
        expect(page.locator("#left")).to_have_text("03:00 left")
        expect(page.locator("#message")).to_be_empty()
        # Running: the count's length (elapsed + left, one reading) grows by exactly a minute,
        # and the page shows more than the 3:00 the count could have before.
        page.click("#start")
        running = self.until(lambda s: s["state"] == "running", "the count running")
        self.assertEqual(self.length(running), 180_000)
        plus.click()
        longer = self.until(lambda s: self.length(s) != 180_000, "a minute added while running")
        self.assertEqual(self.length(longer), 240_000)
        page.wait_for_function("() => { const [m, s] = document.getElementById('display').dataset.text.split(':'); return m * 60 + +s > 180; }",
                               timeout=10000)
        self.assertLessEqual(self.shown_seconds(), 240)
        # An extra timer, paused: exactly a minute more on the box and in its row.
        self.add_in_page("EGG", "6m")
        page.get_by_role("button", name="Pause EGG").click()
        expect(self.row("EGG")).to_have_attribute("data-state", "paused")
        egg = self.timers()["EGG"]
        expect(self.row("EGG").locator(".left")).to_have_text(re.compile(r"^[56]:\d\d$"))
        shown = clock(self.row("EGG").locator(".left").inner_text())
        page.get_by_role("button", name="+1 min EGG").click()
        expect(self.row("EGG").locator("small")).to_contain_text("paused · 7m")
        self.assertEqual(self.timers()["EGG"]["remaining_ms"], egg["remaining_ms"] + 60_000)
        self.assertEqual(self.timers()["EGG"]["duration"], "7m")
        self.assertEqual(clock(self.row("EGG").locator(".left").inner_text()), shown + 60)
        # Running: its length grows by a minute, and it has more left than before the press.
        page.get_by_role("button", name="Resume EGG").click()
        expect(self.row("EGG")).to_have_attribute("data-state", "running")
        was = self.timers()["EGG"]["remaining_ms"]
        page.get_by_role("button", name="+1 min EGG").click()
        expect(self.row("EGG").locator("small")).to_contain_text("running · 8m")
        self.assertGreater(self.timers()["EGG"]["remaining_ms"], was)
        self.assertGreater(clock(self.row("EGG").locator(".left").inner_text()) * 1000, was)
        expect(page.locator("#timers-error")).to_be_empty()
        # The box's own count was left alone by the timer's minute.
        self.assertEqual(self.length(self.box.status()), 240_000)

    def test_plus_one_minute_on_a_ringing_timer_counts_a_minute_again_and_none_once_done(self):
        self.pair_in_page()
        page = self.page
        self.add_in_page("BEEP", "2s")
        expect(self.row("BEEP")).to_have_attribute("data-state", "ringing", timeout=5000)
        page.get_by_role("button", name="+1 min BEEP").click()
        expect(self.row("BEEP")).to_have_attribute("data-state", "running")
        beep = self.timers()["BEEP"]
        self.assertEqual((beep["state"], beep["duration"]), ("running", "1m"))
        self.assertLessEqual(beep["remaining_ms"], 60_000)
        self.assertGreater(beep["remaining_ms"], 2_000)
        expect(page.locator("#ringing")).to_be_hidden()
        # Done: nothing counts, no button (the box would count it again; the page offers it while in progress).
        self.add_in_page("PIP", "1s")
        expect(self.row("PIP")).to_have_attribute("data-state", "ringing", timeout=5000)
        page.get_by_role("button", name="Silence PIP").click()
        expect(self.row("PIP")).to_have_attribute("data-state", "done")
        expect(page.get_by_role("button", name="+1 min PIP")).to_have_count(0)
        expect(page.get_by_role("button", name="+1 min BEEP")).to_have_count(1)

    def test_the_box_count_button_follows_what_the_count_can_take(self):
        self.pair_in_page()
        page = self.page
        plus = page.locator("#add-minute")

        def shown_while(state, visible):
            expect(page.locator("#state")).to_contain_text(state)
            (expect(plus).to_be_visible if visible else expect(plus).to_be_hidden)()

        # A count up to the preset (the switch Up in timer mode) has an end: it takes time.
        page.click("#switch-up")
        expect(page.locator("#switch-up")).to_have_attribute("aria-pressed", "true")
        page.click("#start")
        shown_while("running · timer", True)
        page.click("#stop")
        shown_while("paused · timer", True)
        page.click("#reset")
        shown_while("ready · timer", False)
        # A stopwatch counting up has none: hidden; a stale page that shows it anyway gets the box's refusal.
        page.select_option("#mode", "stopwatch")
        page.click("#start")
        shown_while("running · stopwatch", False)
        # The stale page's press is its button's own handler, run in the page: un-hiding the
        # button and clicking it would race the render the start's event may still bring.
        page.evaluate("document.getElementById('add-minute').click()")
        said = self.box_says({"cmd": "add", "duration": "1m"})
        self.assertIn("a stopwatch counting up has no end", said["error"])
        expect(page.locator("#message")).to_have_text(said["error"])
        page.click("#stop")
        page.click("#reset")
        shown_while("ready · stopwatch", False)
        # A stopwatch counting down from its preset has an end.
        page.click("#switch-down")
        page.click("#start")
        shown_while("running · stopwatch", True)
        page.click("#stop")
        page.click("#reset")
        # An interval program's rounds keep their lengths.
        page.select_option("#mode", "interval")
        page.click("#start")
        shown_while("interval", False)
        self.assertEqual(self.box.status()["state"], "running")
        self.assertIn("interval program", self.box_says({"cmd": "add", "duration": "1m"})["error"])

    def test_refusals_and_a_flood_at_the_limit_change_nothing_and_the_page_stays_responsive(self):
        self.pair_in_page()
        page = self.page
        # Taking away more than is left (the API: the page only adds), in the box's words.
        page.click("#start")
        page.click("#stop")
        self.until(lambda s: s["state"] == "paused", "the count paused")
        bearer = {"Authorization": f"Bearer {self.token()}"}
        status, reply = self.box.http("POST", "/api/add", {"duration": "-1h"}, headers=bearer)
        self.assertEqual(status, 409)
        self.assertEqual(reply["error"], self.box_says({"cmd": "add", "duration": "-1h"})["error"])
        self.assertIn("would leave less than 1s", reply["error"])
        page.click("#reset")
        self.until(lambda s: s["state"] == "ready", "ready")
        # The box's count and a timer each at 99h59m, paused: a minute more would pass the longest.
        # (The count first: with a timer on the display, Start acts on the timer, as on the box.)
        self.box.cli("set", "99h59m")
        page.click("#start")
        page.click("#stop")
        self.until(lambda s: s["state"] == "paused", "the count paused")
        self.add_in_page("OVEN", "99h59m")
        page.get_by_role("button", name="Pause OVEN").click()
        expect(self.row("OVEN")).to_have_attribute("data-state", "paused")
        before = self.box.status()
        oven = self.timers()["OVEN"]
        page.locator("#add-minute").click()
        said = self.box_says({"cmd": "add", "duration": "1m"})["error"]
        self.assertIn("would make it more than 99h59m", said)
        expect(page.locator("#message")).to_have_text(said)
        page.get_by_role("button", name="+1 min OVEN").click()
        said = self.box_says({"cmd": "add", "duration": "1m", "name": "OVEN"})["error"]
        self.assertRegex(said, r"^OVEN has 99h58m5\ds left; adding 1m would make it more than 99h59m")
        expect(page.locator("#timers-error")).to_have_text(said)
        # The flood: 400 adds from 8 clients at once and 40 presses in the page.
        bodies = [{"duration": "1m"}, {"duration": "1m", "name": "OVEN"}, {"duration": "1m", "name": "t1"}, {"duration": "+60s", "name": "OVEN"}]
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            flood = pool.map(lambda i: self.box.http("POST", "/api/add", bodies[i % 4], headers=bearer)[0], range(400))
            for _ in range(20):
                page.locator("#add-minute").click()
                page.get_by_role("button", name="+1 min OVEN").click()
            codes = list(flood)
        took = time.monotonic() - started
        counted = {c: codes.count(c) for c in set(codes)}
        print(f"\n  flood at the limit: 400 adds from 8 clients and 40 presses in {took:.2f} s, replies {counted}")
        self.assertNotIn(200, counted)
        self.assertTrue(set(counted) <= {409, 503}, counted)
        self.assertGreater(counted.get(409, 0), 0)
        after = self.box.status()
        self.assertEqual((after["state"], after["remaining_ms"], after["elapsed_ms"]), (before["state"], before["remaining_ms"], before["elapsed_ms"]))
        self.assertEqual(self.timers()["OVEN"], oven)
        # The page still answers: one more press is refused in the box's words, and a timer resumes.
        page.locator("#add-minute").click()
        expect(page.locator("#message")).to_have_text(re.compile("^the count has 99h58m5\\ds left; adding 1m would make it more than 99h59m"))
        started = time.monotonic()
        page.get_by_role("button", name="Resume OVEN").click()
        expect(self.row("OVEN")).to_have_attribute("data-state", "running")
        print(f"  after the flood: Resume OVEN acted on the box and the page in {time.monotonic() - started:.2f} s")
        self.assertEqual(self.timers()["OVEN"]["state"], "running")

    def raw(self, head, body):
        """The status code tock-web answers a request whose head declares `body`, read as soon as
        the head is sent; then the body, which must not get through (the connection is closed)."""
        with socket.create_connection(("127.0.0.1", self.box.port), timeout=5) as s:
            s.sendall(head)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(4096)
                self.assertTrue(chunk, f"closed without a reply: {data!r}")
                data += chunk
            sent = 0
            try:
                for i in range(0, len(body), 65536):
                    sent += s.send(body[i:i + 65536])
                closed = s.recv(4096) == b""
            except socket.timeout:
                closed = False
            except OSError:
                closed = True
            self.assertTrue(closed, f"the connection stayed open after {sent} bytes of the body")
        return int(data.split(b" ")[1])

    def test_hostile_adds_get_a_clear_error_and_change_nothing(self):
        self.pair_in_page()
        page = self.page
        page.click("#start")
        page.click("#stop")
        self.until(lambda s: s["state"] == "paused", "the count paused")
        self.add_in_page("EGG", "6m")
        page.get_by_role("button", name="Pause EGG").click()
        expect(self.row("EGG")).to_have_attribute("data-state", "paused")
        before, egg = self.box.status(), self.timers()["EGG"]
        token = self.token()
        bearer = {"Authorization": f"Bearer {token}"}
        mega = "A" * (1 << 20)
        cases = [
            ({"duration": 60}, 400, 'add needs "duration"'),
            ({"duration": None}, 400, 'add needs "duration"'),
            ({"duration": ["1m"]}, 400, 'nested deeper than 1 in the field "duration"'),
            ({"duration": "1m", "name": 7}, 400, 'add "name" is a count\'s name'),
            ({"duration": "1m", "name": ""}, 400, 'add "name" is a count\'s name'),
            ({"duration": "1m", "name": "A" * 17}, 400, 'add "name" is a count\'s name'),
            ({"duration": "1m", "name": "A" * 1000}, 400, "larger than 1024 bytes"),
            ({"duration": "-0s"}, 409, "add needs an amount other than 0"),
            ({"duration": "-0s", "name": "EGG"}, 409, "add needs an amount other than 0"),
            ({"duration": "99999h"}, 400, '"99999h" is too long'),
            ({"duration": "-99999h", "name": "EGG"}, 400, '"99999h" is too long'),
            ({"duration": "2400h"}, 409, "would make it more than 99h59m"),
            ({"duration": "soon"}, 400, "add duration"),
            ({"duration": "1m", "name": "<svg/onload=p()>"}, 409, "no timer named <svg/onload=p()> (timers: EGG)"),
            ({"duration": "1m", "cmd": "reset"}, 400, 'unknown field "cmd"'),
            ({"duration": "1m", "op": "cancel", "name": "EGG"}, 400, 'unknown field "op"'),
            ({}, 400, 'add needs "duration"'),
        ]
        for body, code, says in cases:
            status, reply = self.box.http("POST", "/api/add", body, headers=bearer)
            self.assertEqual(status, code, (str(body)[:80], reply))
            self.assertIn(says, reply["error"], str(body)[:80])
        # 1 MB strings and a 2 MB body: refused by size before they are read (413), or read and refused (400).
        for body in [json.dumps({"duration": mega}).encode(), json.dumps({"duration": "1m", "name": mega}).encode(), b"{" * (2 << 20)]:
            head = (b"POST /api/add HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token.encode()
                    + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
            self.assertEqual(self.raw(head, body), 413)
        status, reply = self.box.http("POST", "/api/add", {"duration": "9" * 4000 + "h"}, headers=bearer)
        self.assertEqual(status, 400)
        self.assertIn("larger than 1024 bytes", reply["error"])
        # Without a token, with a forged one, or from another site: refused, nothing reaches the box.
        for headers, code in [({}, 401), ({"Cookie": "tock_token=forged"}, 401), ({"Authorization": "Bearer forged"}, 401),
                              ({**bearer, "Origin": "http://evil.example"}, 403), ({**bearer, "Sec-Fetch-Site": "cross-site"}, 403)]:
            status, reply = self.box.http("POST", "/api/add", {"duration": "1m"}, headers=headers)
            self.assertEqual(status, code, headers)
            self.assertIn("not paired" if code == 401 else "", reply["error"])
        after = self.box.status()
        self.assertEqual((after["state"], after["remaining_ms"]), (before["state"], before["remaining_ms"]))
        self.assertEqual(self.timers()["EGG"], egg)
        self.assertIsNone(page.evaluate("window.pwned"))
        # The page's own add still works after all that.
        page.locator("#add-minute").click()
        self.until(lambda s: s["remaining_ms"] == before["remaining_ms"] + 60_000, "the page's minute")

if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
