"""deploy/image/os-list.py, Raspberry Pi Imager's repository file, on fake
image files: every size and sha256 is the files' own, the fields are the
ones Imager's os_list entries carry, and each bad argument stops it with
what to fix (a URL that is not one, a missing or empty file, a bad date)."""
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "deploy/image/os-list.py")
spec = importlib.util.spec_from_file_location("os_list", SCRIPT)
os_list = importlib.util.module_from_spec(spec)
spec.loader.exec_module(os_list)

FIELDS = {"name", "description", "icon", "url", "extract_size", "extract_sha256", "image_download_size",
          "image_download_sha256", "release_date", "devices", "init_format"}


class OsListTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.img = os.path.join(self.dir.name, "tock-0.1.0-raspi-arm64.img")
        self.xz = self.img + ".xz"
        # An image larger than one read (1 MiB) and not a multiple of it, sparse.
        with open(self.img, "wb") as f:
            f.write(b"boot")
            f.seek(3 * (1 << 20) + 5)
            f.write(b"end")
        with open(self.xz, "wb") as f:
            f.write(bytes(range(256)) * 17)

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, *extra, **over):
        args = {"--image": self.img, "--download": self.xz, "--url": "https://example.org/tock/tock-0.1.0-raspi-arm64.img.xz",
                "--icon": "https://example.org/tock/tock-icon.png", "--version": "0.1.0", "--date": "2026-11-28"}
        args.update(over)
        argv = [a for k, v in args.items() if v is not None for a in (k, v)] + list(extra)
        return subprocess.run([sys.executable, SCRIPT] + argv, capture_output=True, text=True)

    def test_sizes_and_checksums_are_the_files_own(self):
        r = self.run_script()
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(list(doc), ["os_list"])
        (e,) = doc["os_list"]
        self.assertEqual(set(e), FIELDS)
        with open(self.img, "rb") as f:
            img = f.read()
        with open(self.xz, "rb") as f:
            xz = f.read()
        self.assertEqual(e["extract_size"], len(img))
        self.assertEqual(e["extract_size"], 3 * (1 << 20) + 8)
        self.assertEqual(e["extract_sha256"], hashlib.sha256(img).hexdigest())
        self.assertEqual(e["image_download_size"], len(xz))
        self.assertEqual(e["image_download_sha256"], hashlib.sha256(xz).hexdigest())
        self.assertEqual(e["devices"], ["pi3-64bit", "pi4-64bit"])
        self.assertEqual(e["init_format"], "rpi-preseed")
        self.assertEqual(e["release_date"], "2026-11-28")
        self.assertEqual(e["name"], "Tock")
        self.assertIn("0.1.0", e["description"])
        self.assertIsInstance(e["extract_size"], int)

    def test_another_init_format_and_a_file_url(self):
        r = self.run_script("--init-format", "cloudinit-rpi", **{"--url": "file://" + self.xz})
        self.assertEqual(r.returncode, 0, r.stderr)
        e = json.loads(r.stdout)["os_list"][0]
        self.assertEqual(e["init_format"], "cloudinit-rpi")
        self.assertEqual(e["url"], "file://" + self.xz)

    def test_bad_arguments_say_what_to_fix(self):
        cases = [
            ({"--url": "tock.img.xz"}, "--url 'tock.img.xz': an absolute URL"),
            ({"--url": "https://example.org/a b.img.xz"}, "--url"),
            ({"--icon": ""}, "--icon '': an absolute URL of a PNG"),
            ({"--date": "28.11.2026"}, "--date '28.11.2026': YYYY-MM-DD"),
            ({"--date": "2026-02-30"}, "YYYY-MM-DD"),
            ({"--version": "0.1\"; rm"}, "--version"),
            ({"--image": self.img + ".missing"}, "no such file"),
        ]
        for over, said in cases:
            r = self.run_script(**over)
            self.assertEqual(r.returncode, 2, (over, r.stdout))
            self.assertIn(said, r.stderr, over)
            self.assertEqual(r.stdout, "", over)
        for bad in ("Systemd; x", "cloud-init", "preseed"):
            r = self.run_script("--init-format", bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("rpi-preseed", r.stderr, bad)
        open(self.xz, "wb").close()
        r = self.run_script()
        self.assertEqual(r.returncode, 2)
        self.assertIn("an empty file", r.stderr)

    def test_entry_is_reusable(self):
        e = os_list.entry(self.img, self.xz, "https://x.example/t.img.xz", "https://x.example/i.png", "1.2.3~rc1", "2030-01-01")
        self.assertEqual(e["url"], "https://x.example/t.img.xz")


if __name__ == "__main__":
    unittest.main()
