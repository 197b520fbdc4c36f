# A VM scenario of make bench-kernel-path (Tests/vm/run-in-vm.sh): the
# kernel's i2c-stub as the HT16K33's bus. It is SMBus-only, so this records
# what happens rather than asserting a frame: tock's error, tock's write(2)
# calls on the bus device (syscall trace events), and an SMBus byte write
# and read-back through the same stub. i2c-dev.ko and i2c-stub.ko arrive in
# /lib/modules/extra/ (--file).
T=/sys/kernel/tracing
insmod /lib/modules/extra/i2c-dev.ko || fail "insmod i2c-dev.ko failed"
insmod /lib/modules/extra/i2c-stub.ko chip_addr=0x70 || fail "insmod i2c-stub.ko failed"
bus=
for d in /sys/class/i2c-dev/i2c-*; do
  grep -q 'SMBus stub' "$d/name" 2>/dev/null && bus=${d##*/i2c-}
done
[ -n "$bus" ] || fail "no /dev/i2c-N for the stub: $(cat /sys/class/i2c-dev/*/name 2>/dev/null)"
i=0
while [ ! -c "/dev/i2c-$bus" ] && [ "$i" -lt 50 ]; do sleep 0.02; i=$((i + 1)); done

{
  echo "bus /dev/i2c-$bus: $(cat /sys/class/i2c-dev/i2c-$bus/name)"
  i2cset -y "$bus" 0x70 0x05 0xa5 b && echo "i2cset -y $bus 0x70 0x05 0xa5 b: ok"
  echo "i2cget -y $bus 0x70 0x05 b: $(i2cget -y "$bus" 0x70 0x05 b 2>&1)"
} > "$OUT/smbus.txt" 2>&1

cat > /tmp/tock.yaml <<YAML
mode: timer
switch: down
timer: {presets: [30s]}
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: active, pin: GPIO18}
display: {kind: ht16k33, i2c_bus: $bus}
YAML

mount -t tracefs nodev "$T" 2>/dev/null
echo 0 > "$T/tracing_on"; echo > "$T/trace"
echo 1 > "$T/options/event-fork"
echo 1 > "$T/events/syscalls/sys_enter_write/enable"
echo 1 > "$T/events/syscalls/sys_exit_write/enable"
echo 1 > "$T/events/syscalls/sys_enter_openat/enable"
sh -c 'echo $$ > /sys/kernel/tracing/set_event_pid; echo 1 > /sys/kernel/tracing/tracing_on; exec "$0" "$@"' \
  "$BINARY" run --backend gpiod --config /tmp/tock.yaml > "$OUT/tock.log" 2>&1 &
tock=$!
wait_for_exit "$tock" 20 || { kill -TERM "$tock"; log "tock still runs on i2c-stub"; }
echo 0 > "$T/tracing_on"
# the write(2) calls on the bus device (not on fds 1 and 2, the log) and what each returned
awk '/sys_write\(fd: ([03-9a-f]|[0-9a-f][0-9a-f]+),/ { print; want = 1; next } want && /sys_write -> / { print; want = 0 }' "$T/trace" \
  | sed 's/^ *//; s/-> 0xffffffffffffffa1$/-> 0xffffffffffffffa1 (-95, EOPNOTSUPP)/' | head -20 > "$OUT/writes.txt"
cat "$OUT/tock.log" "$OUT/smbus.txt" "$OUT/writes.txt"
