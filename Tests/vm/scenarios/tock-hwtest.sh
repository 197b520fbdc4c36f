# vm-binary: tock
# vm-timeout: 90
# tock hw-test on the gpiod backend: the buzzer line beeps in the kernel,
# every input edge is printed with its kernel timestamp, an input never
# touched is named, and a display that is not there (an HT16K33 on an I2C
# bus this machine lacks) is named with what to do.
#
# A TM1637 without ACK cannot be staged here: when gpio-sim turns a
# released open-drain line into an input it keeps the last driven value
# rather than the pull, so DIO reads low as if a chip answered. The
# TM1637 driver's missing-ACK path is tested on the mock wire
# (Tests/TockDriversTests/TM1637Tests.swift).

cat > /tmp/hw.yaml <<'YAML'
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
leds: {running: GPIO24}
display: {kind: tm1637, clk: GPIO5, dio: GPIO6}
YAML

"$BINARY" hw-test --config /tmp/hw.yaml --listen 4s > "$OUT/hw-test.log" 2>&1 &
t=$!
# The display steps (about 6 s of holds, each frame bit-banged) come first;
# an emulated arm64 guest needs about twice as long as an x86_64 one.
wait_for_value GPIO18 1 25 || fail "the buzzer line never sounded during hw-test"
log "buzzer beeped"
wait_for_file_line "$OUT/hw-test.log" 'inputs: press each button' 15 || fail "hw-test never started listening"
press GPIO17
press GPIO27
set_switch up
wait_for_exit "$t" 20 || fail "hw-test did not finish"
if wait "$t"; then fail "hw-test passed although reset was never pressed"; fi
cat "$OUT/hw-test.log"
grep -q 'display: each segment in turn' "$OUT/hw-test.log" || fail "hw-test did not step through the segments"
grep -qE '^  [0-9.]+m?s  start pressed' "$OUT/hw-test.log" || fail "hw-test did not print the start press with its timestamp"
grep -q 'switch up' "$OUT/hw-test.log" || fail "hw-test did not print the switch"
grep -q 'reset (pins.reset GPIO22) never changed' "$OUT/hw-test.log" || fail "hw-test did not name the untouched reset button"
[ "$(value GPIO18)" = 0 ] || fail "the buzzer is left on after hw-test"

# A display that is not there: named before anything is driven.
sed 's/display: .*/display: {kind: ht16k33, i2c_bus: 1}/' /tmp/hw.yaml > /tmp/hw-i2c.yaml
"$BINARY" hw-test --config /tmp/hw-i2c.yaml --listen 1s > "$OUT/hw-i2c.log" 2>&1 && fail "hw-test passed without the I2C display"
cat "$OUT/hw-i2c.log"
grep -q '/dev/i2c-1 does not exist: enable I2C with dtparam=i2c_arm=on' "$OUT/hw-i2c.log" || fail "hw-test did not name the missing I2C display"
log "hw-test: ok"
