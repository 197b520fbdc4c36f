#!/usr/bin/env python3
"""Raspberry Pi Imager's repository file for the image (make image).

    deploy/image/os-list.py --image IMG --download IMG.xz --url URL
        --icon URL --version V --date YYYY-MM-DD [--init-format F] > FILE.json

`rpi-imager --repo FILE.json` then lists Tock with its OS customisation
(docs/raspberry-pi.md, "Flash the card"). Every size and checksum is
computed from the files themselves: `extract_*` from the image as written
to the card, `image_download_*` from the compressed file Imager fetches
from URL. The list is Imager's repository format (an `os_list` of
entries); each field is checked here, so a mistake stops the build with
what to fix instead of an entry Imager skips without a word.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import sys

# The boards the image starts (docs/raspberry-pi.md, "What to buy"), by
# Imager's device tags: the 3B, 3B+ and Zero 2 W are pi3-64bit, the 4B pi4-64bit.
DEVICES = ["pi3-64bit", "pi4-64bit"]
# The customisation Imager offers: with "rpi-preseed", Imager 2.x (from
# 2.0.11) writes its settings as rpi-preseed.toml on the boot partition,
# which `tock setup` reads at first boot (docs/raspberry-pi.md, "Imager's
# repository file"). Imager keeps an entry only if this is one of "",
# systemd, cloudinit, cloudinit-rpi, rpi-preseed or none.
INIT_FORMAT = "rpi-preseed"
INIT_FORMATS = ["", "systemd", "cloudinit", "cloudinit-rpi", "rpi-preseed", "none"]


def digest(path):
    """(size, sha256 hex) of a file, read in 1 MiB pieces."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            if not block:
                break
            size += len(block)
            h.update(block)
    return size, h.hexdigest()


def entry(image, download, url, icon, version, date, init_format=INIT_FORMAT):
    """The os_list entry, or ValueError naming the argument to fix."""
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*://\S+", url):
        raise ValueError(f"--url {url!r}: an absolute URL (https://..., file:///...) of the .img.xz")
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*://\S+", icon):
        raise ValueError(f"--icon {icon!r}: an absolute URL of a PNG")
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise ValueError(f"--date {date!r}: YYYY-MM-DD") from None
    if not re.fullmatch(r"[0-9][0-9A-Za-z.+~-]{0,63}", version):
        raise ValueError(f"--version {version!r}: a Debian version such as 0.1.0")
    if init_format not in INIT_FORMATS:
        raise ValueError(f"--init-format {init_format!r}: one of {', '.join(map(repr, INIT_FORMATS))}"
                         " (Imager drops an entry with any other value)")
    for what, path in (("--image", image), ("--download", download)):
        if not os.path.isfile(path):
            raise ValueError(f"{what} {path}: no such file")
    extract_size, extract_sha = digest(image)
    download_size, download_sha = digest(download)
    if extract_size == 0 or download_size == 0:
        raise ValueError("an empty file: build the image first (make image)")
    return {
        "name": "Tock",
        "description": f"Tock timer appliance {version}: Debian 13 arm64, the timer and its page",
        "icon": icon,
        "url": url,
        "extract_size": extract_size,
        "extract_sha256": extract_sha,
        "image_download_size": download_size,
        "image_download_sha256": download_sha,
        "release_date": date,
        "devices": DEVICES,
        "init_format": init_format,
    }


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--image", required=True, help="the uncompressed .img (what is written to the card)")
    p.add_argument("--download", required=True, help="the .img.xz Imager downloads")
    p.add_argument("--url", required=True, help="where Imager downloads the .img.xz from")
    p.add_argument("--icon", required=True, help="URL of the 40x40 PNG Imager shows")
    p.add_argument("--version", required=True)
    p.add_argument("--date", required=True, help="release date, YYYY-MM-DD")
    p.add_argument("--init-format", default=INIT_FORMAT)
    a = p.parse_args(argv)
    try:
        e = entry(a.image, a.download, a.url, a.icon, a.version, a.date, a.init_format)
    except ValueError as err:
        print(f"os-list.py: {err}", file=sys.stderr)
        return 2
    json.dump({"os_list": [e]}, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
