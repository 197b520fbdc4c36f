"""The shared callgrind reader on a dump written as callgrind writes them."""
import os
import tempfile
import unittest

import callgrind
import press_path

DUMP = """# callgrind format
version: 1
positions: instr line
events: Ir
summary: 1000
ob=(1) /tmp/x/tock
fl=(1) /src/Sources/TockCore/Machine.swift
fn=(1) $s8TockCore7MachineV6handle
0x1000 10 5
+4 11 7
cfn=(2) $s8TockCore7RendererV5frame
calls=1 0x2000 20
+2 12 500
+3 13 1
fn=(2)
0x2000 20 40
fi=(2) /src/Sources/TockCore/Frame.swift
+8 30 9
ob=(2) /lib/libc.so.6
fl=(3) ???
fn=(3) memcpy
0x9000 0 100
totals: 1000
"""


class CallgrindTest(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp()
        os.write(fd, DUMP.encode())
        os.close(fd)

    def tearDown(self):
        os.unlink(self.path)

    def test_self_cost_per_address_skips_inclusive_call_costs(self):
        c = callgrind.per_address(self.path)
        self.assertEqual(c[("/tmp/x/tock", 0x1000)], 5)
        self.assertEqual(c[("/tmp/x/tock", 0x1004)], 7)
        # the call's 500 is the callee's inclusive cost, not the caller's
        self.assertEqual(c[("/tmp/x/tock", 0x1006)], 0)
        self.assertEqual(c[("/tmp/x/tock", 0x1009)], 1)
        self.assertEqual(c[("/tmp/x/tock", 0x2008)], 9)
        self.assertEqual(c[("/lib/libc.so.6", 0x9000)], 100)
        self.assertEqual(sum(c.values()), 5 + 7 + 1 + 40 + 9 + 100)

    def test_per_function_and_totals(self):
        f = callgrind.per_function(self.path)
        self.assertEqual(f[("/tmp/x/tock", "$s8TockCore7MachineV6handle")], 13)
        self.assertEqual(f[("/tmp/x/tock", "$s8TockCore7RendererV5frame")], 49)
        self.assertEqual(callgrind.totals(self.path), 1000)

    def test_calls_and_their_inclusive_cost_by_name(self):
        # One call to the renderer, costing 500 inclusive; none to malloc.
        self.assertEqual(callgrind.calls_matching([self.path], r"RendererV5frame"), (1, 500))
        self.assertEqual(callgrind.calls_matching([self.path, self.path], r"Renderer"), (2, 1000))
        self.assertEqual(callgrind.calls_to(self.path, {"$s8TockCore7RendererV5frame"}), 1)
        self.assertEqual(callgrind.calls_to(self.path), 0)
        self.assertEqual(callgrind.total([self.path, self.path]), 1000)
        self.assertEqual(callgrind.total([]), 0)

    def test_memory_reads_this_process(self):
        import memory
        status = memory.status(os.getpid())
        self.assertGreater(status["VmRSS"], 0)
        self.assertGreaterEqual(status["VmHWM"], status["VmRSS"])
        rollup = memory.rollup(os.getpid())
        self.assertGreaterEqual(rollup["Rss"], rollup["Pss"])

    def test_the_table_counts_files_the_press_spends_more_in(self):
        quiet = {"/s/Sources/TockLinux/Reactor.swift": 10, "/s/Sources/TockCore/Machine.swift": 0}
        pressed = {"/s/Sources/TockLinux/Reactor.swift": 10, "/s/Sources/TockCore/Machine.swift": 50,
                   "/s/Sources/TockCore/Frame.swift": 3, "(outside tock) libc.so.6": 90}
        text = press_path.table(quiet, pressed)
        self.assertIn("crosses **2 of Tock's files in 1 modules** (TockCore)", text)
        self.assertIn("| `Sources/TockCore/Machine.swift` | 50 | 0 |", text)
        self.assertNotIn("Reactor.swift", text)
        self.assertIn("): libc.so.6 +90", text)


if __name__ == "__main__":
    unittest.main()
