"""The three display kinds: which Pi pin goes to which module pin.

Run as: python displays.py tm1637|ht16k33|max7219 OUT.svg
"""
import sys

import schemdraw.elements as elm

from wiring import name, pi, start

# (Pi side: signal or power name, module pin, wire colour)
DISPLAYS = {
    'tm1637': ('TM1637 4-digit\nmodule', [
        ('3V3', 'VCC', 'red'), ('GND', 'GND', 'black'),
        ('display.clk', 'CLK', 'yellow'), ('display.dio', 'DIO', 'green')]),
    'ht16k33': ('HT16K33\nbackpack', [
        ('5V', '+ (LEDs)', 'red'), ('3V3', 'IO (logic)', 'orange'), ('GND', '- (GND)', 'black'),
        ('i2c1.sda', 'D (SDA)', 'blue'), ('i2c1.scl', 'C (SCL)', 'yellow')]),
    'max7219': ('74AHCT125\nat 5 V', [
        ('5V', 'VCC [14]', 'red'), ('GND', 'GND [7], 1OE 2OE 3OE', 'black'),
        ('spi0.mosi', '1A [2]', 'green'), ('spi0.sclk', '2A [5]', 'yellow'),
        ('spi0.ce0', '3A [9]', 'blue')]),
}


# Yellow on white is hard to see: draw it darker.
INK = {'yellow': 'goldenrod', 'orange': 'darkorange'}
INK.update({c: c for c in ('red', 'black', 'green', 'blue')})

kind, out = sys.argv[1], sys.argv[2]
title, rows = DISPLAYS[kind]
with start() as d:
    header = d.add(pi([s for s, _, _ in rows]))
    module_pins = [elm.IcPin(name=m, side='left') for _, m, _ in reversed(rows)]
    if kind == 'max7219':
        module_pins += [elm.IcPin(name=y, side='right') for y in ('3Y [8]', '2Y [6]', '1Y [3]')]
    module = d.add(elm.Ic(pins=module_pins, edgepadW={'max7219': 3.6, 'ht16k33': 3.0}.get(kind, 2.2), pinspacing=1.0,
                          label=title, lblsize=11).anchor(rows[0][1]).at(
                              (getattr(header, name(rows[0][0])).x + 5, getattr(header, name(rows[0][0])).y)))
    for src, mod_pin, colour in rows:
        d += elm.Wire('-').at(getattr(header, name(src))).to(getattr(module, mod_pin)).color(INK[colour]).label(colour, fontsize=9, color='black')
    if kind == 'max7219':
        max_pins = [elm.IcPin(name=n, side='left') for n in ('GND', 'VCC', 'CS', 'CLK', 'DIN')]

        max7219 = d.add(elm.Ic(pins=max_pins, label='MAX7219\n8-digit module', lblsize=11, edgepadW=2.4,
                               pinspacing=1.0).anchor('DIN').at((module.__getattr__('1Y [3]').x + 3, module.__getattr__('1Y [3]').y)))
        for y, n, colour in (('1Y [3]', 'DIN', 'green'), ('2Y [6]', 'CLK', 'yellow'), ('3Y [8]', 'CS', 'blue')):
            d += elm.Wire('-').at(getattr(module, y)).to(getattr(max7219, n)).color(INK[colour])
        d += elm.Line().at(max7219.VCC).left(0.8).color('red').label('5V', loc='left')
        d += elm.Line().at(max7219.GND).left(0.8).label('GND', loc='left')
    d.save(out)
