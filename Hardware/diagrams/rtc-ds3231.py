"""The DS3231 real-time clock breakout on I2C1, with its coin cell.

Run as: python rtc-ds3231.py OUT.svg
"""
import schemdraw.elements as elm

from wiring import name, pi, save, start

# (Pi side: signal or power name, module pin, wire colour)
ROWS = [('3V3', 'VCC', 'red'), ('GND', 'GND', 'black'),
        ('i2c1.sda', 'SDA', 'blue'), ('i2c1.scl', 'SCL', 'yellow')]
INK = {'yellow': 'goldenrod', 'red': 'red', 'black': 'black', 'blue': 'blue'}

with start() as d:
    header = d.add(pi([s for s, _, _ in ROWS]))
    module = d.add(elm.Ic(pins=[elm.IcPin(name=m, side='left') for _, m, _ in reversed(ROWS)], edgepadW=3.4,
                          pinspacing=1.0, label='DS3231 (0x68)\n\ncoin cell\non the module', lblsize=11).anchor('VCC').at(
                              (getattr(header, name('3V3')).x + 5, getattr(header, name('3V3')).y)))
    for src, pin, colour in ROWS:
        d += elm.Wire('-').at(getattr(header, name(src))).to(getattr(module, pin)).color(INK[colour]).label(colour, fontsize=9, color='black')
    save(d)
