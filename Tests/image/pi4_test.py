#!/usr/bin/env python3
"""The Raspberry Pi image under QEMU's raspi4b (make image-pi4).

The image of make image (or make image-smoke) booted as a Raspberry Pi 4:
the kernel, initramfs and command line from its FAT partition, and the
card's own bcm2711-rpi-4-b.dtb with the changes QEMU needs made to a copy
at test time (Tests/image/pi4-dtb.sh says which and why). QEMU is Debian
13's (10.0: raspi4b; Debian 12's 7.2 has no Pi 4), run from the root of
Tests/image/qemu-root.sh. raspi4b has no USB or Ethernet (no PCIe), so the
test speaks to the box on its first UART: the console, and systemd's debug
shell asked on QEMU's kernel command line (never on the card).

Checks: the first boot reaches READY on the console; tock holds GPIO17,
GPIO27, GPIO22 and GPIO23 of the BCM2711's GPIO controller (pinctrl-bcm2711)
by the default configuration's line names; tock reports ready; the model
is a Pi 4; the setup file applied (host name); the root read-only; the
data partition grown to the card's end; no failed unit; a clean power-off.

  pi4_test.py --image IMG --work DIR --qemu-root ROOT

Prints "PASS what" / "FAIL what: why"; exits 0 when all passed.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

import image_test
from image_test import check, make_card, run

here = os.path.dirname(os.path.abspath(__file__))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SETUP = "# make image-pi4\nhostname = tock-pi4\ntimezone = Europe/Berlin\n"


class Pi4:
    """QEMU's raspi4b in the QEMU root; its first UART on a socket, read
    into the console log and written by shell()."""

    def __init__(self, card, work, root):
        self.card, self.work, self.root = card, work, root
        boot = os.path.join(work, "boot")
        os.makedirs(boot, exist_ok=True)
        config = card.read("config.txt").decode()
        kernel = re.search(r"^kernel=(\S+)", config, re.M).group(1)
        initrd = re.search(r"^initramfs (\S+)", config, re.M).group(1)
        for f in (kernel, initrd, "bcm2711-rpi-4-b.dtb", "cmdline.txt"):
            card.get(f, os.path.join(boot, f))
        self.dtb = os.path.join(boot, "qemu-raspi4b.dtb")
        with open(os.path.join(here, "pi4-dtb.sh")) as script:
            subprocess.run(["bash", os.path.join(here, "in-qemu-root.sh"), root, work, "sh", "-s",
                            os.path.join(boot, "bcm2711-rpi-4-b.dtb"), self.dtb], stdin=script, check=True)
        # The card's command line, then the test's: the console on the
        # first UART (the mini UART, the card's console, is disabled in the
        # copy of the tree: pi4-dtb.sh) and the debug shell there.
        cmdline = open(os.path.join(boot, "cmdline.txt")).read().strip()
        # systemd would start a login prompt on the console's UART too,
        # which takes the port from the shell: masked, on this command line.
        cmdline += " console=ttyAMA0,115200 systemd.debug_shell=ttyAMA0 systemd.mask=serial-getty@ttyAMA0.service"
        self.sock = os.path.join(work, "uart0.sock")
        self.log = os.path.join(work, "console-pi4.log")
        self.cmd = ["bash", os.path.join(here, "in-qemu-root.sh"), root, work,
                    "qemu-system-aarch64", "-M", "raspi4b",
                    "-kernel", f"{boot}/{kernel}", "-initrd", f"{boot}/{initrd}", "-dtb", self.dtb,
                    "-append", cmdline, "-drive", f"file={card.path},if=sd,format=raw",
                    "-chardev", f"socket,id=uart0,path={self.sock},server=on,wait=on",
                    "-serial", "chardev:uart0", "-serial", "null",
                    "-display", "none", "-monitor", "none", "-nodefaults"]

    def start(self):
        if os.path.exists(self.sock):
            os.unlink(self.sock)
        open(self.log, "w").close()
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(self.log + ".qemu", "w"), start_new_session=True)
        # QEMU waits for this connection before the guest starts (wait=on).
        end = time.monotonic() + 60
        while True:
            try:
                self.conn = socket.socket(socket.AF_UNIX)
                self.conn.connect(self.sock)
                break
            except OSError:
                if time.monotonic() > end or self.proc.poll() is not None:
                    raise RuntimeError(f"QEMU did not open {self.sock}: {open(self.log + '.qemu').read()[-600:]}")
                time.sleep(0.2)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        with open(self.log, "ab", buffering=0) as log:
            while True:
                try:
                    data = self.conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                log.write(data)

    def console(self):
        return ANSI.sub("", open(self.log, errors="replace").read()).replace("\r", "")

    def wait_console(self, pattern, timeout, since=0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.console()[since:], re.M)
            if m:
                return time.monotonic() - self.t0
            if self.proc.poll() is not None:
                return None
            time.sleep(0.25)
        return None

    def shell(self, command, timeout=120):
        """COMMAND's output in the debug shell (between two markers the
        shell prints: the echoed command line does not hold them whole)."""
        n = int(time.monotonic() * 1000) % 1000000
        start = len(self.console())
        self.conn.sendall(f"echo B{n}''GIN; {command}; echo E{n}''END\n".encode())
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(rf"B{n}GIN\n(.*?)E{n}END", self.console()[start:], re.S)
            if m:
                return m.group(1)
            time.sleep(0.5)
        raise RuntimeError(f"no answer to {command!r} within {timeout} s")

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
        self.proc.wait()

    def tail(self, n=30):
        return "\n".join(self.console().splitlines()[-n:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--image", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--qemu-root", required=True)
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    t_run = time.monotonic()
    card = make_card(args.image, os.path.join(args.work, "card.img"))
    card.put("tock-setup.txt", SETUP)
    vm = Pi4(card, args.work, args.qemu_root)
    vm.start()
    try:
        kernel = vm.wait_console(r"Machine model: Raspberry Pi 4", 120)
        check(kernel is not None, "the kernel starts on the Pi 4's tree (Machine model: Raspberry Pi 4)", vm.tail())
        t = vm.wait_console(image_test.READY, args.timeout)
        if not check(t is not None, f"first boot: tock.service started (READY) within {args.timeout} s", vm.tail()):
            return 1
        print(f"  raspi4b first boot: power-on to READY {t:.1f} s", flush=True)
        # The debug shell comes up beside the boot; the kernel's messages
        # are kept off the shared UART from here.
        if not check(vm.wait_console(r"root@[^\s:]*:\S*# |^(sh|bash)-[\d.]+# ", 300) is not None, "the debug shell on the first UART", vm.tail()):
            return 1
        # No echo of what is typed, no terminal queries in the answers.
        vm.conn.sendall(b"stty -echo; export TERM=dumb; bind 'set enable-bracketed-paste off' 2>/dev/null\n")
        vm.shell("dmesg -n 1")
        vm.shell("systemctl is-system-running --wait >/dev/null", timeout=600)
        model = vm.shell("tr -d '\\0' < /proc/device-tree/model; echo").strip()
        check(model.startswith("Raspberry Pi 4"), "the box sees a Raspberry Pi 4", model)
        check(vm.shell("systemctl is-active tock").strip() == "active", "tock.service active")
        try:
            st = json.loads(vm.shell("tock status --json").strip().splitlines()[-1])
        except (ValueError, IndexError) as e:
            st = {"error": str(e)}
        check(st.get("state") == "ready", "tock status: ready", st)
        gpio = vm.shell("cat /sys/kernel/debug/gpio")
        chip = gpio.split("gpiochip1")[0]
        check("pinctrl-bcm2711" in chip and all(re.search(rf"{n}\s.*\|tock\s", chip) for n in ("GPIO17", "GPIO27", "GPIO22", "GPIO23")),
              "tock holds GPIO17/27/22/23 of pinctrl-bcm2711 (the default config's line names)", gpio[:1500])
        check(vm.shell("hostname").strip() == "tock-pi4", "host name from tock-setup.txt")
        check(vm.shell("findmnt -no OPTIONS /").strip().startswith("ro"), "root mounted read-only")
        size = int(vm.shell("lsblk -bno SIZE /dev/disk/by-partuuid/746f636b-03").strip())
        disk = os.path.getsize(card.path)
        check(size > disk - card.parts[2][0] - 4 * 2**20, f"data partition grown to the card's end ({size >> 20} MiB)", f"{size} of {disk}")
        failed = vm.shell("systemctl --failed --no-legend --plain | awk '{print $1}'").split()
        check(not failed, "no failed units", failed)
        since = len(vm.console())
        vm.conn.sendall(b"systemctl poweroff\n")
        check(vm.wait_console(r"reboot: Power down", 300, since) is not None, "clean power-off", vm.tail())
    finally:
        vm.kill()
    print(f"image-pi4: {time.monotonic() - t_run:.0f} s; load average {os.getloadavg()[0]:.1f}", flush=True)
    if image_test.failed:
        print(f"image-pi4: {image_test.failed} check(s) failed (console: {vm.log})", flush=True)
    os.unlink(card.path)
    return 1 if image_test.failed else 0


if __name__ == "__main__":
    sys.exit(main())
