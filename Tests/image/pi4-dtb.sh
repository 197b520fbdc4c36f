#!/bin/sh
# The Raspberry Pi 4's device tree as QEMU's raspi4b can boot it: a copy of
# the card's bcm2711-rpi-4-b.dtb with the only changes QEMU needs, made at
# test time (make image-pi4) and never written to the card. Run where
# fdtput is (Tests/image/qemu-root.sh's root has it).
#
#   pi4-dtb.sh CARD-DTB OUT-DTB
#
# 1. The HDMI block at 0x7ef00000 is not emulated: reading its registers
#    aborts (the DDC bus's driver, 3 s in) or answers nothing (the "aon"
#    interrupt controller at 0x7ef00100, whose driver then panics the
#    kernel about 6 s in). Every node in it is disabled: the DVP clock and
#    reset controller, the interrupt controller, the two HDMI encoders
#    (the only nodes that take interrupts from it) and their two DDC buses.
# 2. QEMU wires the SD card to the Arasan SDHCI at 0x7e300000, the slot a
#    real Pi 4 gives its Wi-Fi chip; the card slot of a real Pi 4 (EMMC2 at
#    0x7e340000) has nothing in it under QEMU. The SDHCI node loses what
#    makes it a Wi-Fi slot (the Wi-Fi chip's power sequence, whose reset
#    line is on the firmware's GPIO expander that QEMU lacks, so the
#    controller would wait for it for ever, and the Wi-Fi child node) and
#    EMMC2 is disabled. The root is found by PARTUUID, as on the card.
# 3. The console: the card's (console=ttyS1, the mini UART at 0x7e215040)
#    raises its interrupt without end under raspi4b once its driver opens
#    it: the first core does nothing else, the kernel stalls (RCU, soft
#    lockups) and the SD card's commands time out. The mini UART is
#    disabled, and QEMU's command line adds console=ttyAMA0: the first
#    UART (the PL011 at 0x7e201000), which a real Pi 4 gives its Bluetooth
#    chip, whose node (a serdev that would hold the port, waiting for the
#    same missing GPIO expander) is removed.
# 4. The test's way in: raspi4b has no USB or Ethernet (no PCIe), so no
#    SSH: systemd's debug shell on that UART, asked on QEMU's kernel
#    command line (systemd.debug_shell=ttyAMA0), never on the card.
# Everything else (the GPIO controller and its line names GPIO0..57, the
# UARTs, the clocks) is the card's tree as it is.
set -eu
in=${1:?usage: pi4-dtb.sh CARD-DTB OUT-DTB} out=${2:?usage: pi4-dtb.sh CARD-DTB OUT-DTB}
cp "$in" "$out"
hdmi=$(fdtget -l "$out" /soc | grep '@7ef0') || { echo "pi4-dtb: no HDMI block (@7ef0...) in $in" >&2; exit 1; }
for n in $(printf '/soc/%s\n' $hdmi) /emmc2bus/mmc@7e340000; do
  fdtput -t s "$out" "$n" status disabled
done
fdtput -d "$out" /soc/mmc@7e300000 mmc-pwrseq
fdtput -d "$out" /soc/mmc@7e300000 non-removable
fdtput -r "$out" /soc/mmc@7e300000/wifi@1
fdtput -r "$out" /soc/serial@7e201000/bluetooth
fdtput -t s "$out" /soc/serial@7e215040 status disabled
# Nothing else names the disabled interrupt controller (a newer tree that
# does would panic again: say so rather than boot into it).
ic=$(fdtget "$out" /soc/interrupt-controller@7ef00100 phandle)
for node in $(fdtget -l "$out" /soc); do
  [ "$(fdtget "$out" "/soc/$node" status 2>/dev/null || echo okay)" = disabled ] && continue
  if [ "$(fdtget "$out" "/soc/$node" interrupt-parent 2>/dev/null || true)" = "$ic" ]; then
    echo "pi4-dtb: /soc/$node still takes its interrupts from the disabled HDMI interrupt controller" >&2
    exit 1
  fi
done
