"""The page's words in a real headless browser (Debian's chromium driven
by Playwright) against a mock box and tock-web on loopback: the pairing
hint is not coloured as an error (a wrong code is), the box's name is in
the title and the header, the line under the display names the count a
name on the display stands for (never `t1. elapsed`), and a box without
an update repository says so on the page and in `tock status`.

Usage: page_texts_test.py TOCK TOCK_WEB [CHROMIUM]"""
import os
import socket
import subprocess
import sys
import unittest

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
import browser_test  # noqa: E402
from harness import Box  # noqa: E402

TOCK, TOCK_WEB, CHROMIUM = browser_test.TOCK, browser_test.TOCK_WEB, browser_test.CHROMIUM
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = socket.gethostname().split(".")[0]


class PageTextsTest(browser_test.ChromiumCase):
    pair_in_page = browser_test.BrowserTest.pair_in_page

    def setUp(self):
        self.box = Box(TOCK, TOCK_WEB)
        self.context = self.phone_context()
        self.page = self.context.new_page()

    def tearDown(self):
        self.context.close()
        self.box.stop()

    def color(self, selector):
        return self.page.eval_on_selector(selector, "e => getComputedStyle(e).color")

    def test_the_hint_is_no_error_and_a_wrong_code_is(self):
        page = self.page
        page.goto(self.box.url)
        page.click("#ask")
        expect(page.locator("#pair-message")).to_contain_text("hold its Start button")
        error = page.evaluate("() => { const p = document.createElement('p'); p.className = 'error'; document.body.append(p);"
                              " return getComputedStyle(p).color; }")
        body = page.evaluate("() => getComputedStyle(document.body).color")
        self.assertNotEqual(self.color("#pair-message"), error, "the hint to type the code is coloured as an error")
        self.assertEqual(self.color("#pair-message"), body)
        page.fill("#code", "0000" if self.box.status()["display"] != "0000" else "1111")
        page.click("#pair-form button")
        expect(page.locator("#pair-message")).to_have_class("error")
        expect(page.locator("#pair-message")).to_contain_text("not a code yet")  # the box's refusal
        self.assertEqual(self.color("#pair-message"), error, "a refused code is an error")

    def test_the_boxs_name_in_the_title_and_the_header(self):
        self.pair_in_page()
        self.assertEqual(self.box.status()["host"], HOST)
        expect(self.page.locator("#host")).to_have_text(HOST)
        expect(self.page).to_have_title(f"{HOST} \u2013 Tock")
        self.assertIn(HOST, self.page.locator("header h1").inner_text())

    def test_the_line_under_the_display_names_the_count_a_name_stands_for(self):
        self.pair_in_page()
        page = self.page
        page.click("#start")
        expect(page.locator("#left")).to_contain_text("left", timeout=10000)
        # A second count: the display names each count (t1 for the box's own) for a second in ten.
        self.box.cli("timer", "add", "EGG", "6m")
        # Read in the page, the display and the line together, on every frame, until a name shows
        # (the names take a second in ten while two counts run): no line ever reads as a name's.
        named = page.wait_for_function("""() => {
            const t = (document.getElementById('display').dataset.text || '').trim(), line = document.getElementById('left').textContent;
            window.lines = window.lines || [];
            window.lines.push([t, line]);
            return ['t1', 'EGG'].includes(t.replace(/[ .]/g, '')) ? [t, line] : false; }""", timeout=25000, polling="raf").json_value()
        for text, line in page.evaluate("window.lines"):
            self.assertNotRegex(line, r"[A-Za-z]\w*\.? (elapsed|left)", f"the line reads {line!r} while the display shows {text!r}")
            self.assertNotIn("t1.", line)
        text, line = named
        if text.strip(" .") == "t1":
            self.assertRegex(line, r"^\d+:\d\d (left|elapsed) \u00b7 the box's own count$")
        else:
            self.assertRegex(line, r"^EGG: \d+:\d\d left$")

    def test_no_repository_is_said_on_the_page_and_in_the_status(self):
        self.pair_in_page()
        page = self.page
        expect(page.locator("#update")).to_be_hidden()
        sources = os.path.join(self.box.dir, "tock.sources")
        with open(sources, "w") as f:
            f.write("Types: deb\nURIs: https://tock.invalid/debian\nSuites: stable\nComponents: main\n")
        env = dict(os.environ, TOCK_UPDATE_SOURCES=sources, TOCK_UPDATE_RESULT=os.path.join(self.box.dir, "update-check.json"),
                   TOCK_UPDATE_WORK=os.path.join(self.box.dir, "check"), TOCK_UPDATE_INSTALLED="0.1.0")
        r = subprocess.run([os.path.join(REPO, "deploy/update/tock-update-check")], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.box.cli("update-checked")
        self.assertIn("update: no repository configured", self.box.cli("status"))
        page.reload()
        expect(page.locator("#update")).to_be_visible()
        expect(page.locator("#update")).to_contain_text("No update repository is configured")


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed or not result.testsRun else 0)
