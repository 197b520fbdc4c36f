# vm-binary: tock
# vm-timeout: 60
# The GPIO chip goes away under a running service (the gpio-sim device is
# taken down, as when a USB GPIO adapter is unplugged): tock must not spin
# on a descriptor that stays readable; it logs what happened and exits
# non-zero, so the service manager restarts it and opens the hardware
# afresh.

cat > /tmp/tock.yaml <<'YAML'
timer: {presets: [10m]}
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
display: {kind: none}
YAML
"$BINARY" run --backend gpiod --config /tmp/tock.yaml --trace "$OUT/trace.jsonl" --state /tmp/state.json > "$OUT/tock.log" 2>&1 &
tock=$!
expect_file_line "$OUT/trace.jsonl" '"state":"ready"' 20 "tock never got ready" > /dev/null
press GPIO17
expect_file_line "$OUT/trace.jsonl" '"state":"running"' 5 "Start did not run the timer" > /dev/null

# Take the chip away.
echo 0 > /sys/kernel/config/gpio-sim/tock/live || fail "could not take the gpio-sim chip down"
wait_for_exit "$tock" 10 || fail "tock kept running on a vanished chip (spinning?)"
if wait "$tock"; then fail "tock exited 0 after losing its chip"; fi
cat "$OUT/tock.log"
grep -q 'reading input events failed' "$OUT/tock.log" || fail "tock did not say why it stopped"
n=$(grep -c 'reading input events failed' "$OUT/tock.log")
[ "$n" -le 4 ] || fail "tock logged the failure $n times (spinning)"
grep -q '"running"' /tmp/state.json || fail "the running count was not saved for the restart"
save /tmp/state.json
log "chip gone: tock stopped with an error, state saved"
