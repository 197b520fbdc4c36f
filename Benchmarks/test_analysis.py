"""The benchmark's definitions, checked on hand-made logs (make test)."""
import unittest

import analysis as a

S = 1_000_000_000


class AnalysisTests(unittest.TestCase):
    def test_parse_reads_every_kind_and_keeps_blank_digits(self):
        ev = a.parse_log("ready 5\nwake 10 12\nframe 13   0:05\nbuzzer 14 on\nedge start 1 3 4\n")
        self.assertEqual([e["kind"] for e in ev], ["ready", "wake", "frame", "buzzer", "edge"])
        self.assertEqual(ev[1], {"kind": "wake", "due": 10, "t": 12})
        self.assertEqual(ev[2]["text"], "  0:05")
        self.assertTrue(ev[3]["on"])

    def test_alarm_error_is_buzzer_minus_start_plus_duration(self):
        ev = a.parse_log(f"buzzer {S - 1} on\nbuzzer {11 * S + 250_000} on\n")
        self.assertAlmostEqual(a.alarm_error_ms(ev, S, 10), 0.25)
        self.assertIsNone(a.alarm_error_ms([], S, 10))

    def test_lateness_only_in_the_window(self):
        ev = a.parse_log("wake 100 150\nwake 2000 2600\nwake 9000 9001\n")
        self.assertEqual(a.lateness_us(ev, 1000, 5000), [0.6])

    def test_percentile_nearest_rank(self):
        v = list(range(1, 101))
        self.assertEqual(a.percentile(v, 50), 50)
        self.assertEqual(a.percentile(v, 99), 99)
        self.assertEqual(a.percentile([7], 99), 7)

    def test_a_count_rounded_up_is_on_time_when_each_second_flips_at_its_instant(self):
        d = a.display_for("tock")
        # 00:03 was shown before the start press; the count shows no change at the start.
        ev = a.parse_log(f"frame 5 00:03\nframe {2 * S} 00:02\nframe {3 * S + 1_000_000} 00:01\nbuzzer {4 * S} on\n")
        pts = a.count_errors(ev, d, S, 3)
        self.assertEqual([round(p[1], 3) for p in pts], [0.0, 1.0, 0.0])

    def test_a_truncating_display_is_due_a_step_earlier(self):
        d = a.display_for("gpiozero")
        # 00:02 should appear as soon as less than 3 s remain, i.e. at the start.
        ev = a.parse_log(f"frame {S} 00:03\nframe {S + 50_000_000} 00:02\n")
        self.assertAlmostEqual(a.count_errors(ev, d, S, 3)[0][1], 50.0)
        tenths = a.display_for("swift-timer")
        self.assertEqual(tenths.value("00:02.9"), 2.9)
        self.assertAlmostEqual(tenths.appears_at(2.9, 3), 0.0)

    def test_input_latency_takes_the_first_frame_showing_the_flip(self):
        d = a.display_for("tock")
        ev = a.parse_log(f"frame {S} 00:20\nframe {S + 20_300_000} 00:00\nframe {2 * S + 21_000_000} 00:20\n")
        flips = [(S, 1), (2 * S, 0), (3 * S, 1)]
        self.assertEqual([round(x, 1) for x in a.input_latencies_ms(ev, flips, d, 20)], [20.3, 21.0])

    def test_display_changes_count_changes_not_writes(self):
        ev = a.parse_log("frame 1 a\nframe 2 a\nframe 3 b\nframe 4 b\nframe 5 c\n")
        self.assertEqual(a.display_changes(ev, 2, 5), 2)

    def test_counter_rates(self):
        r = a.counter_rates({"t": 0, "cpu_ns": 0, "voluntary": 0}, {"t": 2 * S, "cpu_ns": 1_000_000, "voluntary": 40})
        self.assertAlmostEqual(r["cpu_s_per_h"], 1.8)
        self.assertEqual(r["wakeups_per_s"], 20)


class TM1637FloorTests(unittest.TestCase):
    """tm1637.py's floor, on frames whose line operations the mock bus
    counted (`tm1637-frames count`: 10:00 after 10:01, 09:49 after 09:50)."""

    def test_the_floor_of_a_transfer_counts_each_edge_and_read_it_needs(self):
        import tm1637
        self.assertEqual(tm1637.transaction_ops([0xC3, 0x3F]), 48)
        self.assertEqual(tm1637.transaction_ops([0xC2, 0x66, 0x6F]), 75)
        # No three-byte transfer takes fewer than 63: the start 2, each
        # byte's 16 clock edges and 3 for its ACK, DIO rising (low after
        # the start) before the first ACK at the latest, the stop 3.
        fewest = min(tm1637.transaction_ops([a, b, c]) for a in range(256) for b in (0, 0xFF) for c in (0, 0xFF))
        self.assertEqual(fewest, 63)

    def test_grid_by_grid_is_one_transfer_per_changed_grid(self):
        import tm1637
        burst, single = tm1637.floors([[0xC2, 0x66, 0x6F]])
        self.assertEqual(burst, 75)
        self.assertEqual(single, tm1637.transaction_ops([0xC2, 0x66]) + tm1637.transaction_ops([0xC3, 0x6F]))
        self.assertEqual(tm1637.floors([[0x88 | 7]]), (tm1637.transaction_ops([0x8F]),) * 2)


if __name__ == "__main__":
    unittest.main()
