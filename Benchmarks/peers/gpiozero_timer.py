"""A Raspberry Pi count-down timer as people write it today with gpiozero:
a Button and a Buzzer, and a main loop that sleeps 0.05 s and takes 0.05
from a counter each time round. Run on gpiozero's mock pin factory
(GPIOZERO_PIN_FACTORY=mock), whose pins are driven like wires.

Kept faithful on purpose, bugs included. Only instrumentation is added:
CLOCK_MONOTONIC instants (time.monotonic_ns) of readiness, each wake from
the sleep, each display write and the alarm, kept in memory and written to
the log file at SIGTERM; and a thread that turns lines from a named pipe
(the protocol of `tock run --mock-input`) into pin levels, as the pins'
edges would arrive on a Pi.

usage: gpiozero_timer.py SECONDS INPUT-FIFO LOG-FILE
"""
import signal
import sys
import threading
import time

from gpiozero import Button, Buzzer, Device

SECONDS = float(sys.argv[1])
record = []  # instrumentation


def now():
    return time.monotonic_ns()


start_button = Button(17)   # to GND, internal pull-up
up_switch = Button(27)      # the Up/Down toggle: closed = Up
buzzer = Buzzer(18)

remaining = SECONDS
running = False
shown = None


def show(value):
    # A 4-digit display: MM:SS, as tm1637.numbers(minutes, seconds) draws it.
    text = "%02d:%02d" % (int(value) // 60, int(value) % 60)
    record.append("frame %d %s" % (now(), text))


def start():
    global running
    running = True


def flip():
    global remaining
    if not running:
        remaining = 0.0 if up_switch.is_pressed else SECONDS


start_button.when_pressed = start
up_switch.when_pressed = flip
up_switch.when_released = flip


def panel(path):
    # Not part of the program people write: the wires to the mock pins.
    pins = {"start": Device.pin_factory.pin(17), "switch": Device.pin_factory.pin(27)}
    with open(path) as fifo:
        for line in fifo:
            words = line.split()
            if len(words) >= 2 and words[0] in pins:
                pin = pins[words[0]]
                pin.drive_low() if words[1] == "1" else pin.drive_high()


def dump(signum, frame):
    with open(sys.argv[3], "w") as f:
        f.write("\n".join(record) + "\n")
    sys.exit(0)


signal.signal(signal.SIGTERM, dump)
threading.Thread(target=panel, args=(sys.argv[2],), daemon=True).start()
record.append("ready %d" % now())
print("ready", flush=True)

while True:
    if running:
        remaining -= 0.05
        if remaining <= 0:
            buzzer.on()
            record.append("buzzer %d on" % now())
            running = False
            remaining = 0
    show(remaining)
    due = now() + 50_000_000
    time.sleep(0.05)
    record.append("wake %d %d" % (due, now()))
