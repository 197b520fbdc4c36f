"""Checks that the default pins agree across deploy/config.yaml, the
connection tables of Hardware/README.md and Hardware/diagrams/wiring.py.

Usage: pins.py CONFIG README WIRING. Prints one "ok NAME" or
"FAIL NAME: why" line per check. Standard library only.
"""
import ast
import re
import sys

# The 40-pin header: BCM line -> physical pin (every Raspberry Pi with a 40-pin header).
HEADER = {
    'GPIO2': 3, 'GPIO3': 5, 'GPIO4': 7, 'GPIO14': 8, 'GPIO15': 10, 'GPIO17': 11, 'GPIO18': 12,
    'GPIO27': 13, 'GPIO22': 15, 'GPIO23': 16, 'GPIO24': 18, 'GPIO10': 19, 'GPIO9': 21,
    'GPIO25': 22, 'GPIO11': 23, 'GPIO8': 24, 'GPIO7': 26, 'GPIO0': 27, 'GPIO1': 28,
    'GPIO5': 29, 'GPIO6': 31, 'GPIO12': 32, 'GPIO13': 33, 'GPIO19': 35, 'GPIO16': 36,
    'GPIO26': 37, 'GPIO20': 38, 'GPIO21': 40,
}
# Bus signals sit on fixed lines (I2C1, SPI0).
BUSES = {'i2c1.sda': 'GPIO2', 'i2c1.scl': 'GPIO3', 'spi0.mosi': 'GPIO10', 'spi0.sclk': 'GPIO11', 'spi0.ce0': 'GPIO8'}


def from_config(path):
    """signal -> (line, physical pin from the [NN] comment)."""
    found, section = {}, None
    for line in open(path, encoding='utf-8'):
        m = re.match(r'^([a-z_]+):', line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r'^  ([a-z_]+):\s*(GPIO\d+)\s*#\s*\[(\d+)\]', line)
        if m and section:
            found[f'{section}.{m.group(1)}'] = (m.group(2), int(m.group(3)))
        m = re.match(r'^  i2c_bus:.*SDA \[(\d+)\], SCL \[(\d+)\]', line)
        if m:
            found['i2c1.sda'] = ('GPIO2', int(m.group(1)))
            found['i2c1.scl'] = ('GPIO3', int(m.group(2)))
    return found


def from_readme(path):
    """signal -> set of (line, pin) over every connection-table row naming it."""
    found = {}
    for line in open(path, encoding='utf-8'):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) < 3 or not line.startswith('|'):
            continue
        m = re.fullmatch(r'`([a-z0-9_]+\.[a-z0-9_]+)`', cells[2])
        if not m or not cells[0].isdigit():
            continue
        found.setdefault(m.group(1), set()).add((cells[1].strip('`'), int(cells[0])))
    return found


def from_wiring(path):
    tree = ast.parse(open(path, encoding='utf-8').read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, 'id', '') == 'PINS' for t in node.targets):
            return {k: tuple(v) for k, v in ast.literal_eval(node.value).items()}
    return {}


def main(config, readme, wiring):
    cfg, doc, dia = from_config(config), from_readme(readme), from_wiring(wiring)
    failures = 0

    def report(name, problems):
        nonlocal failures
        if problems:
            failures += 1
            print(f'FAIL {name}: ' + '; '.join(problems))
        else:
            print(f'ok {name}')

    if not cfg or not doc or not dia:
        report('sources parsed', [f'signals found: config {len(cfg)}, README {len(doc)}, diagrams {len(dia)}'])
        return 1
    for signal in sorted(set(cfg) | set(doc) | set(dia)):
        problems = []
        places = {'deploy/config.yaml': {cfg[signal]} if signal in cfg else set(),
                  'Hardware/README.md': doc.get(signal, set()),
                  'Hardware/diagrams/wiring.py': {dia[signal]} if signal in dia else set()}
        for where, pairs in places.items():
            if not pairs and not (where == 'deploy/config.yaml' and signal.startswith('spi0.')):
                problems.append(f'missing in {where}')
            if len(pairs) > 1:
                problems.append(f'{where} names it differently in different rows: {sorted(pairs)}')
            for bcm, pin in pairs:
                if HEADER.get(bcm) != pin:
                    problems.append(f'{where}: {bcm} is pin {HEADER.get(bcm)}, not {pin}')
                if signal in BUSES and bcm != BUSES[signal]:
                    problems.append(f'{where}: {signal} is on {BUSES[signal]}, not {bcm}')
        all_pairs = set().union(*places.values())
        if len(all_pairs) > 1:
            problems.append('disagree: ' + ', '.join(f'{w} {sorted(p)}' for w, p in places.items() if p))
        report(f'pin {signal}', problems)
    lines = {}
    for signal, (bcm, _) in dia.items():
        lines.setdefault(bcm, []).append(signal)
    report('no line used twice', [f'{bcm}: {s}' for bcm, s in lines.items() if len(s) > 1])
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:4]))
