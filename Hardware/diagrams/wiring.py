"""The default wiring, shared by every diagram in this folder.

Signal -> (BCM line, physical pin on the 40-pin header). The signal names
are the configuration keys of deploy/config.yaml (buses: the interface
pins). Tests/hardware/consistency.sh checks these against deploy/config.yaml
and the tables in Hardware/README.md.
"""
import sys

import schemdraw
import schemdraw.elements as elm

PINS = {
    'pins.start': ('GPIO17', 11),
    'pins.stop': ('GPIO27', 13),
    'pins.reset': ('GPIO22', 15),
    'pins.switch': ('GPIO23', 16),
    'buzzer.pin': ('GPIO18', 12),
    'leds.running': ('GPIO24', 18),
    'leds.ringing': ('GPIO25', 22),
    'display.clk': ('GPIO5', 29),
    'display.dio': ('GPIO6', 31),
    'i2c1.sda': ('GPIO2', 3),
    'i2c1.scl': ('GPIO3', 5),
    'spi0.mosi': ('GPIO10', 19),
    'spi0.sclk': ('GPIO11', 23),
    'spi0.ce0': ('GPIO8', 24),
}

# Power and ground pins used in the diagrams.
POWER = {'3V3': 1, '5V': 2, 'GND': 6}


def pin_label(signal):
    line, pin = PINS[signal]
    return f'{line} [{pin}]'


def name(item):
    """The header pin's label for a signal or a power name."""
    return f'{item} [{POWER[item]}]' if item in POWER else pin_label(item)


def pi(items, pinspacing=1.0):
    """The Pi's header as a block with the pins a diagram uses, top to bottom."""
    pins = [elm.IcPin(name=name(i), side='right') for i in reversed(items)]
    return elm.Ic(pins=pins, edgepadW=3.2, pinspacing=pinspacing).label(
        'Raspberry Pi 40-pin header\n[physical pin]', loc='top', fontsize=11)


def start():
    schemdraw.use('svg')
    schemdraw.config(fontsize=11, bgcolor='white', font='sans-serif', margin=1.5)
    return schemdraw.Drawing(show=False)


def save(drawing):
    drawing.save(sys.argv[1] if len(sys.argv) > 1 else __import__('os').devnull)
