"""Active buzzer switched by an NPN transistor (low side), flyback diode across it."""
import schemdraw.elements as elm

from wiring import pin_label, save, start

with start() as d:
    d += elm.Dot(open=True).at((0, 0)).label(pin_label('buzzer.pin') + '\nbuzzer.pin', loc='left')
    d += elm.Resistor().right().label('R_B 1 kΩ', loc='top')
    q = d.add(elm.BjtNpn(circle=True).anchor('base').label('Q1\n2N2222 / BC337', loc='right', ofst=(0.3, 0)))
    d += elm.Ground().at(q.emitter)
    d += elm.Line().at(q.collector).up(0.6)
    node = d.add(elm.Dot())
    d += elm.Line().at(node.center).left(1.5)
    d += elm.RBox().up(3).reverse().label('BZ1 active buzzer\n5 V, ≈30 mA', loc='top')
    d += elm.Line().right(1.5)
    top = d.add(elm.Dot())
    d += elm.Line().at(node.center).right(1.5)
    d += elm.Diode().up(3).label('D1\n1N4148', loc='bottom')
    d += elm.Line().left(1.5)
    d += elm.Line().at(top.center).up(0.6)
    d += elm.Vdd().label('5V [2]')
    save(d)
