"""The page on a phone-sized and a desktop viewport, paired and counting,
from a mock box and tock-web on loopback (make web-screenshots), into
docs/pictures/web-phone.png and web-desktop.png.

Usage: screenshots.py TOCK TOCK_WEB CHROMIUM OUTDIR"""
import os
import sys

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
from harness import Box  # noqa: E402

tock, tock_web, chromium, out = sys.argv[1:5]
box = Box(tock, tock_web)
try:
    token = box.pair()
    cookie = {"Cookie": f"tock_token={token}"}
    box.http("POST", "/api/alarms", {"at": "06:45", "days": "mon-fri", "label": "gym"}, headers=cookie)
    box.http("POST", "/api/alarms", {"at": "08:30", "days": "sat,sun"}, headers=cookie)
    box.http("POST", "/api/start", headers=cookie)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for name, viewport, scale in [("phone", {"width": 390, "height": 844}, 2), ("desktop", {"width": 1280, "height": 800}, 1)]:
            context = browser.new_context(viewport=viewport, device_scale_factor=scale, is_mobile=name == "phone")
            context.add_cookies([{"name": "tock_token", "value": token, "url": box.url}])
            page = context.new_page()
            page.goto(box.url)
            expect(page.locator("#app")).to_be_visible()
            expect(page.locator("#alarms li")).to_have_count(2)
            page.screenshot(path=os.path.join(out, f"web-{name}.png"), full_page=name == "phone")
            context.close()
        browser.close()
finally:
    box.stop()
