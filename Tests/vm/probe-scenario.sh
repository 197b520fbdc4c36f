# VM scenario for Tests/vm/probe.c ($BINARY): a press on GPIO17 (sim pull)
# reaches the program as a falling then a rising edge with recent kernel
# timestamps about the press length apart; GPIO18 driven high reads 1 in
# sysfs and, once released, falls back to its pull (0).

log "probe on $SIM_CHIP ($SIM)"
[ "$(value GPIO18)" = 0 ] || fail "GPIO18 reads $(value GPIO18) before the probe runs (expected its pull-down, 0)"

"$BINARY" --chip "$SIM_CHIP" --in GPIO17 --out GPIO18 --edges 2 --timeout 10 --hold 5 \
  > "$OUT/probe.log" 2>&1 &
probe=$!

expect_file_line "$OUT/probe.log" '^ready: ' 10 "the probe never became ready" > /dev/null
grep -q '^ready: in=1$' "$OUT/probe.log" || fail "GPIO17 did not read 1 (released, pulled up): $(grep '^ready' "$OUT/probe.log")"
head -1 "$OUT/probe.log"
if [ -n "${EXPECT_API:-}" ]; then
  grep -q "^probe: api=$EXPECT_API " "$OUT/probe.log" || fail "the probe was built for another libgpiod API than $EXPECT_API: $(head -1 "$OUT/probe.log")"
fi

log "pressing GPIO17 for 0.1 s"
press GPIO17 0.1
expect_file_line "$OUT/probe.log" '^edge: rising' 10 "the probe did not see both edges of the press" > /dev/null
grep '^edge: ' "$OUT/probe.log"

fall=$(grep -m1 '^edge: ' "$OUT/probe.log")
rise=$(grep '^edge: ' "$OUT/probe.log" | sed -n 2p)
case $fall in "edge: falling offset=17 "*) ;; *) fail "expected a falling edge on offset 17 first, got: $fall" ;; esac
case $rise in "edge: rising offset=17 "*) ;; *) fail "expected a rising edge on offset 17 second, got: $rise" ;; esac
field() { echo "$1" | sed -n "s/.* $2=\(-\{0,1\}[0-9.]*\).*/\1/p"; }
latency=$(field "$fall" latency_us)
[ -n "$latency" ] && [ "$latency" -ge 0 ] && [ "$latency" -lt 2000000 ] \
  || fail "the edge timestamp is not a recent CLOCK_MONOTONIC time: $fall"
held_us=$(awk -v a="$(field "$fall" ts)" -v b="$(field "$rise" ts)" 'BEGIN { printf "%d", (b - a) * 1e6 }')
log "press length seen by the kernel: ${held_us} us"
[ "$held_us" -ge 100000 ] && [ "$held_us" -lt 1000000 ] \
  || fail "the edges are ${held_us} us apart for a 0.1 s press"

expect_file_line "$OUT/probe.log" '^output: GPIO18=1$' 5 "the probe did not report GPIO18 high" > /dev/null
wait_for_value GPIO18 1 2 || fail "GPIO18 sim value is $(value GPIO18) while the probe drives it high"
log "GPIO18 reads 1 in $SIM/sim_gpio18/value"

wait_for_exit "$probe" 10 || fail "the probe did not exit"
wait "$probe"; status=$?
[ "$status" = 0 ] || fail "the probe exited with status $status: $(tail -1 "$OUT/probe.log")"
wait_for_value GPIO18 0 2 || fail "GPIO18 reads $(value GPIO18) after release (expected its pull-down, 0)"
log "released GPIO18 falls back to its pull: 0"
