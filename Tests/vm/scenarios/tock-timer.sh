# vm-binary: tock
# vm-timeout: 120
# tock run on the gpiod backend: a 3 s count-down started with the Start
# button, the running LED, the alarm (buzzer and ringing LED) at zero,
# silenced with Stop; SIGTERM ends the service with the buzzer off.

cat > /tmp/tock.yaml <<'YAML'
mode: timer
switch: down
timer:
  presets: [3s]
alarm:
  ring_for: 20s
pins:
  start: GPIO17
  stop: GPIO27
  reset: GPIO22
  switch: GPIO23
buzzer:
  kind: active
  pin: GPIO18
leds:
  running: GPIO24
  ringing: GPIO25
display:
  kind: none
YAML
cp /tmp/tock.yaml "$OUT/config.yaml"

"$BINARY" run --verbose --backend gpiod --config /tmp/tock.yaml --trace "$OUT/trace.jsonl" \
  --state /tmp/state.json > "$OUT/tock.log" 2>&1 &
tock=$!

expect_file_line "$OUT/trace.jsonl" '"state":"ready"' 20 "tock never reported ready" > /dev/null
log "tock ready"
[ "$(value GPIO24)" = 0 ] || fail "the running LED is lit before Start"
[ "$(value GPIO18)" = 0 ] || fail "the buzzer sounds before Start"

press GPIO17
expect_file_line "$OUT/trace.jsonl" '"state":"running"' 5 "Start did not run the timer" > /dev/null
wait_for_value GPIO24 1 2 || fail "the running LED (GPIO24) is not lit while running"
log "running, LED on"

expect_file_line "$OUT/trace.jsonl" '"state":"ringing"' 8 "the timer did not ring at zero" > /dev/null
wait_for_value GPIO25 1 2 || fail "the ringing LED (GPIO25) is not lit while ringing"
wait_for_value GPIO18 1 3 || fail "the buzzer (GPIO18) never sounded while ringing"
log "ringing, buzzer sounded"

press GPIO27
expect_file_line "$OUT/trace.jsonl" '"state":"(done|ready)"' 5 "Stop did not silence the alarm" > /dev/null
wait_for_value GPIO18 0 2 || fail "the buzzer still sounds after Stop"
wait_for_value GPIO25 0 2 || fail "the ringing LED is still lit after Stop"
log "silenced"

# The log shows the kernel's edges (with their timestamps) reaching the
# state machine, and the buzzer being driven.
grep -E 'edge start active at Instant' "$OUT/tock.log" | head -2
grep -qE 'edge start active at Instant\([0-9]+\.[0-9]{3}s\)' "$OUT/tock.log" || fail "the log has no edge from the kernel"
grep -q 'state ready -> running' "$OUT/tock.log" || fail "the log does not show the press starting the timer"
grep -q 'buzzer on' "$OUT/tock.log" || fail "the log does not show the buzzer driven"

kill -TERM "$tock"
wait_for_exit "$tock" 10 || fail "tock did not stop on SIGTERM"
[ "$(value GPIO18)" = 0 ] || fail "the buzzer sounds after tock stopped"
[ -f /tmp/state.json ] && save /tmp/state.json
log "tock stopped"
