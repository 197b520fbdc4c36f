"""wire.py on synthetic tracefs text: what it decodes, and that each fault
the vm-test check stands for is caught (make test runs these)."""

import json
import os
import tempfile
import unittest

import wire

BASE, CLK, DIO = 512, 5, 6


class Bus:
    """tracefs lines for a TM1637 driven as the driver drives it: a line
    is set only when its level changes, DIO in the middle of CLK's low."""

    def __init__(self, half_us=5.0):
        self.t = 10.0
        self.half = half_us / 1e6
        self.level = {CLK: 1, DIO: 1}
        self.lines = []

    def wait(self, d):
        self.t += d

    def call(self, cmd):
        self.lines.append(f"            tock-42      [000] ...1.  {self.t:.6f}: sys_ioctl(fd: e, cmd: {cmd}, arg: 7ffe)")

    def set(self, line, v):
        if self.level[line] == v:
            return
        self.call("c040b409")
        self.level[line] = v
        self.lines.append(f"            tock-42      [000] .....  {self.t:.6f}: gpio_value: {BASE + line} set {v}")

    def read(self, v):
        self.call("c040b408")
        self.lines.append(f"            tock-42      [000] .....  {self.t:.6f}: gpio_value: {BASE + DIO} get {v}")

    def marker(self, text):
        self.lines.append(f"              sh-7       [000] .....  {self.t:.6f}: tracing_mark_write: kpath: {text}")

    def transfer(self, data, ack=True):
        q = self.half / 2
        self.set(CLK, 1); self.set(DIO, 1); self.wait(self.half)
        self.set(DIO, 0); self.wait(self.half); self.set(CLK, 0)
        for b in data:
            for bit in range(8):
                self.wait(q); self.set(DIO, b >> bit & 1); self.wait(q)
                self.set(CLK, 1); self.wait(self.half); self.set(CLK, 0)
            self.wait(q); self.set(DIO, 1); self.wait(q); self.set(CLK, 1); self.wait(self.half)
            self.read(0 if ack else 1); self.set(CLK, 0)
        self.wait(q); self.set(DIO, 0); self.wait(q); self.set(CLK, 1); self.wait(self.half)
        self.set(DIO, 1); self.wait(self.half)


def frames_for(texts):
    """The transfers a driver sends for these texts, as TM1637.show does."""
    out, regs, control = [], None, None
    for text in texts:
        want = wire.register_bytes(text)
        lit = any(want)
        fr = []
        if lit and want != regs:
            idx = [i for i in range(4) if regs is None or want[i] != regs[i]]
            if regs is None:
                fr.append([wire.DATA_COMMAND])
            fr.append([wire.ADDRESS_COMMAND + idx[0]] + want[idx[0]:idx[-1] + 1])
            regs = want
        c = 0x8F if lit else 0x80
        if c != control:
            fr.append([c])
            control = c
        out.append(fr)
    return out


def write_run(d, bus, texts, mode="timer"):
    import gzip
    with gzip.open(os.path.join(d, "events.txt.gz"), "wt") as f:
        f.write("\n".join(bus.lines) + "\n")
    with open(os.path.join(d, "trace.jsonl"), "w") as f:
        for t in texts:
            f.write(json.dumps({"t": 0, "display": t}) + "\n")
    with open(os.path.join(d, "gpio-base.txt"), "w") as f:
        f.write(f"{BASE}\n")
    with open(os.path.join(d, "wire.env"), "w") as f:
        f.write(f"mode={mode}\nclk={CLK}\ndio={DIO}\n")


COUNT = ["00:30", "00:29", "00:28", "00:27"]


class FontTests(unittest.TestCase):
    def test_the_decoders_glyphs_are_the_box_fonts(self):
        """wire.py reads digits back with its own copy of the font; a glyph
        changed in Sources/TockCore/Frame.swift (`segments(ascii:)`) and
        not here fails."""
        import re
        swift = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                  "Sources", "TockCore", "Frame.swift")).read()
        table = swift[swift.index("static func segments(ascii code: UInt8)"):]
        table = table[:table.index("default: nil")]
        font = {m.group(1): int(m.group(2), 16) for m in re.finditer(r'case UInt8\(ascii: "(.)"\): (0x[0-9A-Fa-f]{2})', table)}
        self.assertGreater(len(font), 30)
        self.assertEqual(wire.GLYPHS, font)


class WireTests(unittest.TestCase):
    def run_check(self, texts=COUNT, traced=None, half_us=5.0, mutate=None, mode="timer"):
        bus = Bus(half_us)
        bus.marker("window start")
        for fr in frames_for(texts):
            for data in fr:
                if mutate:
                    data = mutate(data)
                bus.transfer(data)
            bus.wait(0.5)
        bus.marker("window end")
        with tempfile.TemporaryDirectory() as d:
            write_run(d, bus, traced if traced is not None else texts, mode)
            return wire.check(d), wire.analyse(d)

    def test_a_count_down_decodes_to_its_text_and_meets_the_floor(self):
        faults, a = self.run_check()
        self.assertEqual(faults, [])
        self.assertEqual([f["text"] for f in a["frames"]], COUNT)
        self.assertEqual(a["frames"][1]["bytes"], [[0xC2, 0x5B, 0x6F]])
        for f in a["frames"]:
            self.assertEqual((f["sets"], f["reads"]), (f["floor_sets"], f["floor_reads"]))
        # one byte 0xC3 then 0x7F: start 2, bytes 16 + 16 clocks, DIO changes, 2 ACKs, stop 3
        self.assertEqual(wire.floor_ops([[0xC3, 0x7F]]), (46, 2))

    def test_a_frame_other_than_the_traced_one_fails(self):
        faults, _ = self.run_check(traced=["00:30", "00:29", "00:26", "00:27"])
        self.assertTrue(any("tock's trace says" in f for f in faults), faults)

    def test_a_corrupted_byte_fails(self):
        flip = lambda data: [b ^ 0x01 if b == 0x7F else b for b in data]  # noqa: E731
        faults, _ = self.run_check(mutate=flip)
        self.assertTrue(faults)

    def test_a_skipped_second_fails(self):
        texts = ["00:30", "00:29", "00:27"]
        faults, _ = self.run_check(texts=texts)
        self.assertEqual(faults, ["the count-down went from 29 s to 27 s"])

    def test_a_stopwatch_counts_up_from_its_zero(self):
        texts = ["05:00", "00:00", "00:02", "00:07", "00:13"]
        self.assertEqual(self.run_check(texts=texts, mode="stopwatch")[0], [])
        faults, _ = self.run_check(texts=["00:00", "00:07", "00:05"], mode="stopwatch")
        self.assertEqual(faults, ["the stopwatch went from 7 to 5 hundredths"])

    def test_a_clock_faster_than_the_datasheet_fails(self):
        faults, _ = self.run_check(half_us=1.0)
        self.assertTrue(any("clk_high" in f and "datasheet" in f for f in faults), faults)

    def test_a_missing_ack_fails(self):
        bus = Bus()
        bus.transfer([0x40], ack=False)
        with tempfile.TemporaryDirectory() as d:
            write_run(d, bus, ["    "])
            faults = wire.check(d)
        self.assertTrue(any("not acknowledged" in f for f in faults), faults)

    def test_a_stop_inside_a_byte_fails(self):
        bus = Bus()
        bus.set(DIO, 0); bus.wait(5e-6); bus.set(CLK, 0)
        for _ in range(3):
            bus.wait(5e-6); bus.set(CLK, 1); bus.wait(5e-6); bus.set(CLK, 0)
        bus.wait(5e-6); bus.set(CLK, 1); bus.wait(5e-6); bus.set(DIO, 1)
        with self.assertRaisesRegex(wire.WireError, "stop in the middle of a byte"):
            wire.decode(wire.read_events_from(bus.lines)[2], BASE + CLK, BASE + DIO)

    def test_a_set_to_the_level_a_line_has_counts_but_is_no_fault(self):
        bus = Bus()
        # CLK is high already: an unshadowed driver's set before its start
        bus.call("c040b409")
        bus.lines.append(f"            tock-42      [000] .....  {bus.t:.6f}: gpio_value: {BASE + CLK} set 1")
        bus.transfer([0x80])
        with tempfile.TemporaryDirectory() as d:
            write_run(d, bus, ["    "])
            a = wire.analyse(d)
        self.assertEqual(len(a["frames"]), 1)
        self.assertEqual(a["frames"][0]["sets"], a["frames"][0]["floor_sets"] + 1)

    def test_frames_split_as_show_sends_them(self):
        t = lambda *bs: {"bytes": list(bs), "first": 0.0}  # noqa: E731
        got = wire.frames([t(0x40), t(0xC0, 1, 2, 3, 4), t(0x8F), t(0xC3, 5), t(0x80), t(0x8F), t(0xC2, 6, 7)])
        self.assertEqual([[x["bytes"][0] for x in f] for f in got], [[0x40, 0xC0, 0x8F], [0xC3], [0x80], [0x8F], [0xC2]])


if __name__ == "__main__":
    unittest.main()
