# vm-binary: tock
# vm-timeout: 90
# What a person wiring the box meets: a wrong line name, a line another
# program holds, and no GPIO chip at all each end tock run with an error
# that says what to fix (exit 1), and never with a crash.

base() {
  cat <<YAML
timer: {presets: [3s]}
pins: {start: $1, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
display: {kind: none}
YAML
}

# A wrong line name: the message names the key and lists the chips.
base GPIO99 > /tmp/wrong.yaml
"$BINARY" run --backend gpiod --config /tmp/wrong.yaml > "$OUT/wrong.log" 2>&1 && fail "tock accepted GPIO99"
cat "$OUT/wrong.log"
# (an arm64 virt machine has its own PL061 chip before the sim: gpiochip0 [9030000.pl061] 8 lines)
grep -qE "pins.start: GPIO line \"GPIO99\" not found on any chip \(chips: ([^)]*, )?$SIM_CHIP_NAME \[tock-sim\] 32 lines(, [^)]*)?\)" "$OUT/wrong.log" \
  || fail "the wrong-name error does not name the key and the chips"

# tock config check on the board checks names against the chips, with the
# file, line and key.
"$BINARY" config check /tmp/wrong.yaml > "$OUT/check.log" 2>&1 && fail "config check accepted GPIO99"
cat "$OUT/check.log"
grep -q '^/tmp/wrong.yaml:2: pins.start: GPIO line "GPIO99" not found on any chip' "$OUT/check.log" \
  || fail "config check does not name the file, line and key of the unknown line"

# A busy line: one tock holds the lines; a second one names the holder.
base GPIO17 > /tmp/ok.yaml
"$BINARY" run --backend gpiod --config /tmp/ok.yaml --trace "$OUT/first.jsonl" > "$OUT/first.log" 2>&1 &
first=$!
expect_file_line "$OUT/first.jsonl" '"state":"ready"' 20 "the first tock never got ready" > /dev/null
"$BINARY" run --backend gpiod --config /tmp/ok.yaml > "$OUT/busy.log" 2>&1 && fail "a second tock claimed busy lines"
cat "$OUT/busy.log"
grep -q "line GPIO17 ($SIM_CHIP_NAME line 17) is in use by \"tock\"" "$OUT/busy.log" || fail "the busy-line error does not name the holder"
kill -TERM "$first"
wait_for_exit "$first" 10 || fail "the first tock did not stop"

# No chip: the message says what to check.
"$BINARY" run --backend gpiod --config /tmp/ok.yaml --chips /tmp > "$OUT/nochip.log" 2>&1 && fail "tock ran without a GPIO chip"
cat "$OUT/nochip.log"
grep -q 'no GPIO chips in /tmp' "$OUT/nochip.log" || fail "the missing-chip error is unclear"

# A bouncy button: many edges within 5 ms is one press (the kernel's own
# edges, the kernel's timestamps).
"$BINARY" run --backend gpiod --config /tmp/ok.yaml --trace "$OUT/bounce.jsonl" > "$OUT/bounce.log" 2>&1 &
t=$!
expect_file_line "$OUT/bounce.jsonl" '"state":"ready"' 20 "tock never got ready" > /dev/null
for _ in 1 2 3 4 5; do pull GPIO17 pull-down; pull GPIO17 pull-up; done
pull GPIO17 pull-down; sleep 0.1; pull GPIO17 pull-up
expect_file_line "$OUT/bounce.jsonl" '"state":"running"' 5 "the bouncy press did not start the timer" > /dev/null
expect_file_line "$OUT/bounce.jsonl" '"state":"ringing"' 8 "no alarm" > /dev/null
n=$(grep -c '"state":"running"' "$OUT/bounce.jsonl")
[ "$n" = 1 ] || fail "one bouncy press gave $n starts"
kill -TERM "$t"; wait_for_exit "$t" 10 || fail "tock did not stop"
log "errors and bounce: ok"
