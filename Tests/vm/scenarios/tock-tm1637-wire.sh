# vm-binary: tock
# vm-timeout: 120
# vm-check: python3 Benchmarks/kernel-path/wire.py check
# tock run with a TM1637 on CLK GPIO5, DIO GPIO6 (open drain), counting
# down (WIRE_MODE=timer, the default) or a stopwatch (WIRE_MODE=stopwatch,
# the switch Up),
# with the kernel's tracefs recording every line change and read of the
# GPIO character device (gpio:gpio_direction, gpio:gpio_value) and every
# system call tock makes (syscalls:sys_enter_*, tock's pid and its threads
# only). "kpath: window" markers bracket WIRE_SECONDS (default 3) of
# counting. The host decodes the TM1637 protocol from the trace
# (Benchmarks/kernel-path/wire.py check: the bytes on the wire show what
# tock's trace says it displayed, with the datasheet's timing); make
# bench-kernel-path reads the same files for its figures.
#
# Files in $OUT: events.txt.gz (tracefs text), trace.jsonl (tock's trace),
# gpio-base.txt (the sim chip's first global GPIO number), fds.txt (tock's
# open files), stats.txt (the ring buffer's counters), wire.env.
mode=${WIRE_MODE:-timer}
seconds=${WIRE_SECONDS:-3}
T=/sys/kernel/tracing

mount -t tracefs nodev "$T" 2>/dev/null || [ -d "$T/events" ] || fail "cannot mount tracefs"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
[ -d "$T/events/gpio" ] || fail "the kernel has no gpio trace events"
[ -d "$T/events/syscalls" ] || fail "the kernel has no syscall trace events (CONFIG_FTRACE_SYSCALLS)"

case $mode in
  timer) sw=down body='mode: timer
timer:
  presets: [30s]' ;;
  stopwatch) sw=up body='mode: stopwatch' ;;   # the switch Up with no target
  *) fail "WIRE_MODE is timer or stopwatch, not $mode" ;;
esac
cat > /tmp/tock.yaml <<YAML
$body
switch: $sw
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
leds: {running: GPIO24}
display: {kind: tm1637, clk: GPIO5, dio: GPIO6}
YAML
save /tmp/tock.yaml config.yaml

# The sim chip's base: tracepoints name lines by global number.
sim_base > "$OUT/gpio-base.txt" || exit 1
printf 'mode=%s\nseconds=%s\nclk=5\ndio=6\ndigits=4\n' "$mode" "$seconds" > "$OUT/wire.env"

echo 0 > "$T/tracing_on"
echo 65536 > "$T/buffer_size_kb"
echo > "$T/trace"
echo 1 > "$T/options/event-fork"
echo 1 > "$T/events/gpio/gpio_value/enable"
echo 1 > "$T/events/gpio/gpio_direction/enable"
for e in "$T"/events/syscalls/sys_enter_*; do echo 1 > "$e/enable"; done

# tock's pid goes into set_event_pid, and recording starts, just before it
# runs; event-fork adds its threads.
sh -c 'echo $$ > /sys/kernel/tracing/set_event_pid; echo 1 > /sys/kernel/tracing/tracing_on; exec "$0" "$@"' \
  "$BINARY" run --backend gpiod --config /tmp/tock.yaml --trace "$OUT/trace.jsonl" > "$OUT/tock.log" 2>&1 &
tock=$!
expect_file_line "$OUT/trace.jsonl" '"state":"ready"' 30 "tock never reported ready" > /dev/null
if [ "$sw" = up ]; then
  # tock's pull-up bias sets the sim line's pull when it requests it: the
  # switch is flipped once tock runs
  set_switch up
  expect_file_line "$OUT/trace.jsonl" '"display":"00:00"' 5 "the switch Up did not show the stopwatch's 00:00" > /dev/null
fi
sleep 0.5
press GPIO17
expect_file_line "$OUT/trace.jsonl" '"state":"running"' 5 "Start did not start the count" > /dev/null
sleep 0.5
echo "kpath: window start" > "$T/trace_marker"
sleep "$seconds"
echo "kpath: window end" > "$T/trace_marker"
ls -l "/proc/$tock/fd" > "$OUT/fds.txt" 2>&1
kill -TERM "$tock"
wait_for_exit "$tock" 10 || fail "tock did not stop on SIGTERM"
echo 0 > "$T/tracing_on"
cat "$T/per_cpu/cpu0/stats" > "$OUT/stats.txt"
gzip -c "$T/trace" > "$OUT/events.txt.gz"
log "trace: $(wc -c < "$OUT/events.txt.gz") bytes compressed; $(grep -c display "$OUT/trace.jsonl") display lines"
grep -q '^overrun: 0$' "$OUT/stats.txt" || fail "the trace ring buffer overran: $(grep overrun "$OUT/stats.txt")"
