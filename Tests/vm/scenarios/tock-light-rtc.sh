# vm-binary: tock
# vm-timeout: 150
# vm-arch: amd64
# vm-file: .cache/vm/kernel/current/extra/i2c-dev.ko:/lib/modules/extra/i2c-dev.ko
# vm-file: .cache/vm/kernel/current/extra/i2c-stub.ko:/lib/modules/extra/i2c-stub.ko
# The light sensor and the RTC through the kernel. The kernel's i2c-stub
# stands in for a BH1750 at 0x23: it takes only SMBus, which the driver
# speaks (Send Byte, Read Word Data through i2c-dev's I2C_SMBUS ioctl), and
# its word at command 0x10 is the result the driver reads, scripted here
# with i2cset while tock hw-test and tock run read it. The QEMU machine's
# CMOS clock (rtc_cmos, built into Debian's kernel) is the RTC; Debian's
# amd64 kernel has no rtc-ds1307, so a DS3231 (and its flat battery) cannot
# be staged on the stub. amd64 only: i2c-modules.sh takes the two modules
# from Debian's amd64 kernel package, the one the amd64 guest boots.
insmod /lib/modules/extra/i2c-dev.ko || fail "insmod i2c-dev.ko failed"
insmod /lib/modules/extra/i2c-stub.ko chip_addr=0x23 || fail "insmod i2c-stub.ko failed"
bus=
for d in /sys/class/i2c-dev/i2c-*; do
  grep -q 'SMBus stub' "$d/name" 2>/dev/null && bus=${d##*/i2c-}
done
[ -n "$bus" ] || fail "no /dev/i2c-N for the stub"
i=0
while [ ! -c "/dev/i2c-$bus" ] && [ "$i" -lt 50 ]; do sleep 0.02; i=$((i + 1)); done

# A BH1750 count N goes out high byte first: the SMBus word is the bytes swapped.
lux_word() { printf '0x%02x%02x' $(($1 & 255)) $(($1 >> 8)); }   # lux_word COUNTS
set_counts() { i2cset -y "$bus" 0x23 0x10 "$(lux_word "$1")" w || fail "i2cset failed"; }

cat > /tmp/hw.yaml <<YAML
pins: {start: GPIO17, stop: GPIO27, reset: GPIO22, switch: GPIO23}
buzzer: {kind: none}
display: {kind: none}
light: {sensor: bh1750, i2c_bus: $bus, every: 1s, smoothing: 0s}
YAML

# 1. hw-test: three readings (240 counts = 200 lx) and the RTC.
set_counts 240
"$BINARY" hw-test --config /tmp/hw.yaml --listen 1s > "$OUT/hw-test.log" 2>&1
cat "$OUT/hw-test.log"
grep -q 'light sensor: three readings' "$OUT/hw-test.log" || fail "hw-test did not read the light sensor"
[ "$(grep -c '^  200 lx$' "$OUT/hw-test.log")" = 3 ] || fail "hw-test did not read 200 lx three times"
grep -q '^rtc: /dev/rtc0 (rtc_cmos' "$OUT/hw-test.log" || fail "hw-test did not name the RTC"
log "hw-test: light 200 lx, rtc named"

# 2. tock run: the readings scripted over time, the level in the status.
"$BINARY" run --backend gpiod --config /tmp/hw.yaml --socket /tmp/tock.sock > "$OUT/run.log" 2>&1 &
tock=$!
status_field() { "$BINARY" status --json --socket /tmp/tock.sock 2>/dev/null | tr ',{}' '\n\n\n' | sed -n "s/^ *\"$1\" *: *//p" | head -1; }
wait_level() {   # wait_level LEVEL SECONDS
  _deadline "$2"
  until [ "$(status_field level)" = "$1" ]; do _expired && return 1; sleep 0.2; done
}
wait_level 5 15 || fail "the level never became 5 at 200 lx (status: $("$BINARY" status --json --socket /tmp/tock.sock 2>&1))"
log "200 lx: level 5"
set_counts 2      # 1.7 lx: a dark room
wait_level 1 10 || fail "the level never fell to 1 at 1.7 lx"
[ "$(status_field brightness_now)" = 1 ] || fail "the display's brightness is not 1 in the dark"
log "1.7 lx: level 1, brightness 1"
# (A sensor that goes away cannot be staged: tock holds /dev/i2c-N open,
# which pins i2c-stub, so rmmod refuses. That path runs on the mock bus:
# Tests/TockHostTests/LightOnVirtualTimeTests.swift.)
kill -TERM "$tock"
wait_for_exit "$tock" 10 || fail "tock run did not stop"
cat "$OUT/run.log"
