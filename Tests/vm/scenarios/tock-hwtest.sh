# vm-binary: tock
# vm-timeout: 90
# tock hw-test on the gpiod backend: the display check names a TM1637 that
# never acknowledges (DIO held high by its pull-up, as with no module
# wired), the buzzer line beeps in the kernel, every input edge is printed
# with its kernel timestamp, and an input never touched is named.

cat > /tmp/hw.yaml <<'YAML'
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
leds: {running: GPIO24}
display: {kind: tm1637, clk: GPIO5, dio: GPIO6}
YAML
# No module on the bus: DIO floats up to its pull-up, so no ACK ever comes.
pull GPIO6 pull-up
pull GPIO5 pull-up

"$BINARY" hw-test --config /tmp/hw.yaml --listen 4s > "$OUT/hw-test.log" 2>&1 &
t=$!
wait_for_value GPIO18 1 10 || fail "the buzzer line never sounded during hw-test"
log "buzzer beeped"
wait_for_file_line "$OUT/hw-test.log" 'inputs: press each button' 15 || fail "hw-test never started listening"
press GPIO17
press GPIO27
set_switch up
wait_for_exit "$t" 20 || fail "hw-test did not finish"
if wait "$t"; then fail "hw-test passed although the display never answered and reset was never pressed"; fi
cat "$OUT/hw-test.log"
grep -q 'display (tm1637) does not answer: TM1637 on CLK GPIO5 DIO GPIO6 did not acknowledge' "$OUT/hw-test.log" \
  || fail "hw-test did not name the silent display"
grep -qE '^  [0-9.]+m?s  start pressed' "$OUT/hw-test.log" || fail "hw-test did not print the start press with its timestamp"
grep -q 'switch up' "$OUT/hw-test.log" || fail "hw-test did not print the switch"
grep -q 'reset (pins.reset GPIO22) never changed' "$OUT/hw-test.log" || fail "hw-test did not name the untouched reset button"
[ "$(value GPIO18)" = 0 ] || fail "the buzzer is left on after hw-test"
log "hw-test: ok"
