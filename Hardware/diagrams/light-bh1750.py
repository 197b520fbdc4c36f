"""The BH1750 light sensor breakout (GY-302) on I2C1, beside the display.

Run as: python light-bh1750.py OUT.svg
"""
import schemdraw.elements as elm

from wiring import name, pi, save, start

# (Pi side: signal or power name, module pin, wire colour)
ROWS = [('3V3', 'VCC', 'red'), ('GND', 'GND', 'black'),
        ('i2c1.sda', 'SDA', 'blue'), ('i2c1.scl', 'SCL', 'yellow'), (None, 'ADDR (open: 0x23)', None)]
INK = {'yellow': 'goldenrod', 'red': 'red', 'black': 'black', 'blue': 'blue'}

with start() as d:
    header = d.add(pi(['3V3', 'GND', 'i2c1.sda', 'i2c1.scl']))
    module = d.add(elm.Ic(pins=[elm.IcPin(name=m, side='left') for _, m, _ in reversed(ROWS)], edgepadW=3.4,
                          pinspacing=1.0, label='BH1750\n(GY-302)', lblsize=11).anchor('VCC').at(
                              (getattr(header, name('3V3')).x + 5, getattr(header, name('3V3')).y)))
    # ADDR stays open: the breakout pulls it low (0x23); to 3.3 V it is 0x5c.
    for src, pin, colour in ROWS[:4]:
        d += elm.Wire('-').at(getattr(header, name(src))).to(getattr(module, pin)).color(INK[colour]).label(colour, fontsize=9, color='black')
    save(d)
