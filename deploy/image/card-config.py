#!/usr/bin/env python3
"""The configuration file the image puts on its boot partition.

    deploy/image/card-config.py deploy/config.yaml > BOOT/tock/config.yaml

The same settings as the package's deploy/config.yaml, with the comments
that tell its owner what to do said as they are true on the image: the
file in use is this one on the card (tock-setup.service checks it and
keeps it at every boot: a change applies from the next boot), the box has
no shell commands for its owner, the buses are enabled by the image
(tock-buses.txt), and the MQTT password is a file on the card. Only
comments change (Tests/image/test_card_config.py checks that the settings
read the same). Each replacement must match exactly once: a change of the
package's file that one no longer matches stops the build, naming it.
"""
import sys

REPLACEMENTS = [
    ("# Tock configuration: /etc/tock/config.yaml\n",
     "# Tock configuration: tock/config.yaml on the card (the drive TOCKBOOT)\n"),
    ("# optional: delete what you do not change. Unknown keys are errors, so a typo\n"
     "# is reported rather than ignored. After editing:\n"
     "#\n"
     "#   tock config check /etc/tock/config.yaml && sudo systemctl restart tock\n",
     "# optional: delete what you do not change. Unknown keys are errors, so a typo\n"
     "# is reported rather than ignored. After editing, put the card back in the\n"
     "# box and switch it on: the box reads this file at every boot. A file with\n"
     "# a mistake is not used (the box keeps the last good one, else these\n"
     "# defaults), the display shows Er10 and tock/setup-log.txt on this card\n"
     "# names the line and what to write (docs/raspberry-pi.md).\n"),
    ("# label (\"gpiochip0:17\", \"pinctrl-rp1:17\"). `gpioinfo` lists the names.\n",
     "# label (\"gpiochip0:17\", \"pinctrl-rp1:17\"). On the image's boards the header's\n"
     "# lines are GPIO2 to GPIO27, by the numbers in Hardware/README.md.\n"),
    ("                         # with dtoverlay=pwm in config.txt)\n",
     "                         # the image enables it: tock-buses.txt on the card)\n"),
    ("  i2c_bus: 1             # ht16k33 only: /dev/i2c-1 (SDA [3], SCL [5]; dtparam=i2c_arm=on)\n",
     "  i2c_bus: 1             # ht16k33 only: /dev/i2c-1 (SDA [3], SCL [5]; the image enables it)\n"),
    ("  spi_bus: 0             # max7219 only: /dev/spidev0.0 (dtparam=spi=on)\n",
     "  spi_bus: 0             # max7219 only: /dev/spidev0.0 (the image enables it)\n"),
    ("#  i2c_bus: 1              # /dev/i2c-1 (SDA [3], SCL [5]; dtparam=i2c_arm=on)\n",
     "#  i2c_bus: 1              # /dev/i2c-1 (SDA [3], SCL [5]; the image enables it)\n"),
    ("#  password_file: /etc/tock/mqtt-password   # its first line; chmod 640, group tock\n",
     "#  password_file: /run/tock-image/mqtt-password   # write the password alone in\n"
     "#                          # tock/mqtt-password on this card; the box keeps it\n"
     "#                          # (readable by root and tock only) and links it here\n"),
    ("#  tls:\n",
     "#  tls:                    # files on the box's read-only root: not yet settable from the card\n"),
]


def card_text(text):
    """The card's text, or ValueError naming the replacement that does not match once."""
    for old, new in REPLACEMENTS:
        n = text.count(old)
        if n != 1:
            raise ValueError(f"deploy/config.yaml has {n} copies of {old.splitlines()[-1].strip()!r}, "
                             "not 1: update deploy/image/card-config.py with the file")
        text = text.replace(old, new)
    return text


def main(argv):
    if len(argv) != 1:
        print("usage: card-config.py deploy/config.yaml > BOOT/tock/config.yaml", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        text = f.read()
    try:
        sys.stdout.write(card_text(text))
    except ValueError as e:
        print(f"card-config.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
