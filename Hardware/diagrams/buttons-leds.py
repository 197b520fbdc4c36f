"""Buttons and the Up/Down switch to GND (internal pull-ups), status LEDs to GND."""
import schemdraw.elements as elm

from wiring import PINS, pi, pin_label, save, start

BUTTONS = [('pins.start', 'Start'), ('pins.stop', 'Stop'), ('pins.reset', 'Reset'), ('pins.switch', 'Up/Down\n(closed = Up)')]
LEDS = [('leds.running', 'running'), ('leds.ringing', 'ringing')]

with start() as d:
    signals = [s for s, _ in BUTTONS] + [s for s, _ in LEDS]
    header = d.add(pi(signals + ['GND'], pinspacing=1.6))
    for signal, name in BUTTONS:
        pin = getattr(header, pin_label(signal))
        d += elm.Line().at(pin).right(1.5)
        sw = elm.Switch() if signal == 'pins.switch' else elm.Button()
        d += sw.right().label(name, loc='top')
        d += elm.Line().right(0.6)
        d += elm.Ground()
    for signal, name in LEDS:
        pin = getattr(header, pin_label(signal))
        d += elm.Line().at(pin).right(0.5)
        d += elm.Resistor().right().label('330 Ω', loc='top')
        d += elm.LED().right().label(name, loc='bottom')
        d += elm.Line().right(0.6)
        d += elm.Ground()
    gnd = getattr(header, 'GND [6]')
    d += elm.Line().at(gnd).right(1.5)
    d += elm.Ground()
    save(d)
