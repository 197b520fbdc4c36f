"""deploy/image/card-config.py: the card's config.yaml speaks of the image
(no command the image's owner cannot run, no file that is not the one in
use, the MQTT password on the card) and holds the same settings as the
package's file: only comments differ, and `tock config check` passes it
(the tock in TOCK, else .build/debug/tock)."""
import importlib.util
import os
import re
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location("card_config", os.path.join(REPO, "deploy/image/card-config.py"))
card_config = importlib.util.module_from_spec(spec)
spec.loader.exec_module(card_config)


def settings(text):
    """The lines that are not comments, each without its trailing comment."""
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        out.append(re.sub(r"\s+#.*$", "", line))
    return out


class CardConfigTest(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(REPO, "deploy/config.yaml"), encoding="utf-8") as f:
            self.package = f.read()
        self.card = card_config.card_text(self.package)

    def test_no_word_the_image_makes_untrue(self):
        for word in ("systemctl", "gpioinfo", "/etc/tock/config.yaml", "/etc/tock/mqtt-password",
                     "config.txt", "dtparam", "dtoverlay", "sudo"):
            self.assertNotIn(word, self.card, f"the card's config.yaml still says {word!r}")

    def test_it_says_how_the_file_takes_effect_and_where_the_password_goes(self):
        self.assertIn("tock/config.yaml on the card", self.card)
        self.assertIn("the box reads this file at every boot", self.card)
        self.assertIn("password_file: /run/tock-image/mqtt-password", self.card)
        self.assertIn("tock/mqtt-password on this card", self.card)

    def test_only_comments_change(self):
        self.assertEqual(settings(self.package), settings(self.card))
        self.assertGreater(len(settings(self.card)), 40)

    def test_a_package_file_that_no_longer_matches_stops_the_build(self):
        broken = self.package.replace("`gpioinfo` lists the names.", "`gpioinfo` lists them.")
        with self.assertRaises(ValueError) as e:
            card_config.card_text(broken)
        self.assertIn("update deploy/image/card-config.py", str(e.exception))
        with self.assertRaises(ValueError):
            card_config.card_text(self.package + self.package)  # every line twice: not one copy
        self.assertEqual(card_config.main([]), 2)

    def test_tock_config_check_passes_the_card_file(self):
        tock = os.environ.get("TOCK") or os.path.join(REPO, ".build/debug/tock")
        self.assertTrue(os.access(tock, os.X_OK), f"no tock binary at {tock}: build it (swift build --product tock) or set TOCK")
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(self.card)
        try:
            r = subprocess.run([tock, "config", "check", f.name], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
