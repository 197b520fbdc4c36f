# vm-binary: tock
# vm-timeout: 120
# vm-check: python3 Benchmarks/kernel-path/wire.py check-splash
# tock splash (the image's first frame, before tock runs): with the
# kernel's tracefs recording every line change of the GPIO character
# device, it sends "boot" to a TM1637 on CLK GPIO5, DIO GPIO6 at the
# night's brightness (2, dimmer than the configured 6), touches no other
# line (the buttons, the switch, the buzzer and the LED of the same
# configuration are never requested), exits 0 with the lines let go, and
# tock run then claims the same lines and reaches ready. The host decodes
# the wire (Benchmarks/kernel-path/wire.py check-splash).
#
# Files in $OUT: events.txt.gz (tracefs text), gpio-base.txt, wire.env,
# splash.log, debug-gpio-after.txt (the kernel's line table after it exits).
T=/sys/kernel/tracing
mount -t tracefs nodev "$T" 2>/dev/null || [ -d "$T/events" ] || fail "cannot mount tracefs"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
[ -d "$T/events/gpio" ] || fail "the kernel has no gpio trace events"

cat > /tmp/tock.yaml <<'YAML'
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
leds: {running: GPIO24}
display:
  kind: tm1637
  clk: GPIO5
  dio: GPIO6
  brightness: 6
  night: {from: "22:00", to: "07:00", brightness: 2}
YAML
save /tmp/tock.yaml config.yaml

sim_base > "$OUT/gpio-base.txt" || exit 1
printf 'clk=5\ndio=6\ndigits=4\ntext=boot\nbrightness=2\n' > "$OUT/wire.env"

echo 0 > "$T/tracing_on"
echo 16384 > "$T/buffer_size_kb"
echo > "$T/trace"
echo 1 > "$T/events/gpio/gpio_value/enable"
echo 1 > "$T/events/gpio/gpio_direction/enable"
echo 1 > "$T/tracing_on"
"$BINARY" splash --config /tmp/tock.yaml > "$OUT/splash.log" 2>&1
rc=$?
echo 0 > "$T/tracing_on"
gzip -c "$T/trace" > "$OUT/events.txt.gz"
cat /sys/kernel/debug/gpio > "$OUT/debug-gpio-after.txt"
[ "$rc" -eq 0 ] || fail "tock splash exited $rc: $(cat "$OUT/splash.log")"
grep -q '^shown "boot" on the tm1637 on GPIO5 and GPIO6$' "$OUT/splash.log" || fail "tock splash said: $(cat "$OUT/splash.log")"
# The kernel's table lists a requested line with its consumer: none is
# left once tock splash has exited.
if grep -q '|tock' "$OUT/debug-gpio-after.txt"; then
  fail "a line is still requested after tock splash exited: $(grep tock "$OUT/debug-gpio-after.txt")"
fi
log "splash: $(cat "$OUT/splash.log")"

# The lines are free for the service: tock run claims them and is ready.
"$BINARY" run --backend gpiod --config /tmp/tock.yaml --trace "$OUT/trace.jsonl" > "$OUT/tock.log" 2>&1 &
tock=$!
expect_file_line "$OUT/trace.jsonl" '"state":"ready"' 30 "tock run did not reach ready after tock splash: $(tail -3 "$OUT/tock.log")" > /dev/null
# A line another program holds (here tock run): the splash says which and
# what to check, exits 1, and takes nothing from it.
if "$BINARY" splash --config /tmp/tock.yaml > "$OUT/splash-busy.log" 2>&1; then
  fail "tock splash exited 0 with its lines held by tock run: $(cat "$OUT/splash-busy.log")"
else
  rc=$?
fi
[ "$rc" = 1 ] || fail "tock splash exited $rc (not 1) with its lines held: $(cat "$OUT/splash-busy.log")"
grep -q 'could not show "boot": line GPIO5 (.*) is in use by "tock"' "$OUT/splash-busy.log" \
  || fail "tock splash did not name the busy line: $(cat "$OUT/splash-busy.log")"
log "splash with its lines held: $(cat "$OUT/splash-busy.log")"
kill -0 "$tock" 2>/dev/null || fail "tock run died while the splash tried its lines"
kill -TERM "$tock"
wait_for_exit "$tock" 10 || fail "tock did not stop on SIGTERM"
log "tock run claimed the display's lines after the splash and was ready"
