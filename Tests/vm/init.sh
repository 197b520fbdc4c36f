#!/bin/busybox sh
# /init of the test VM (busybox only). Loads the modules, creates a gpio-sim
# chip named like a Raspberry Pi's, runs /vm/scenario.sh with /vm/lib.sh
# sourced, prints every file under /out between markers, prints
# "VM-RESULT: PASS" or "VM-RESULT: FAIL <why>" and powers off.
/bin/busybox mkdir -p /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run /out
/bin/busybox --install -s
export PATH=/vm/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export HOME=/root TERM=dumb TZ=UTC
mkdir -p /root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
echo "VM-INIT: uptime $(cut -d' ' -f1 /proc/uptime) s"
echo "VM-MACHINE: $(uname -m) $(uname -r)"

result() {   # result PASS | result FAIL why...
  # keep the kernel quiet while the files and the result are printed
  echo 1 > /proc/sys/kernel/printk 2>/dev/null
  dump_out
  echo "VM-UPTIME: $(cut -d' ' -f1 /proc/uptime) s"
  echo "VM-RESULT: $*"
  sync
  poweroff -f
  sleep 5
}

dump_out() {
  dmesg > /out/dmesg.txt 2>/dev/null
  (cd /out && find . -type f | sed 's|^\./||' | sort) | while read -r f; do
    echo "VM-FILE-BEGIN $f $(wc -c < "/out/$f")"
    base64 < "/out/$f"
    echo "VM-FILE-END $f"
  done
}

# settings written by run-in-vm.sh
[ -f /vm/env ] && . /vm/env

# ---------------------------------------------------------------- modules
while read -r m; do
  [ -n "$m" ] || continue
  insmod "/lib/modules/vm/$m.ko" || result "FAIL insmod $m.ko failed: $(dmesg | tail -3 | tr '\n' ' ')"
done < /lib/modules/vm/load-order
grep -q " /sys/kernel/config " /proc/mounts || mount -t configfs configfs /sys/kernel/config \
  || result "FAIL cannot mount configfs"

# ---------------------------------------------------------------- gpio-sim chip
lines=${VM_SIM_LINES:-32}
label=${VM_SIM_LABEL:-tock-sim}
cfg=/sys/kernel/config/gpio-sim/tock
[ -d /sys/kernel/config/gpio-sim ] || result "FAIL /sys/kernel/config/gpio-sim missing (gpio-sim not loaded?)"
mkdir "$cfg" "$cfg/bank0" || result "FAIL cannot create the gpio-sim chip in configfs"
echo "$lines" > "$cfg/bank0/num_lines"
echo "$label" > "$cfg/bank0/label"
k=0
while [ "$k" -lt "$lines" ]; do
  if ! { mkdir "$cfg/bank0/line$k" && echo "GPIO$k" > "$cfg/bank0/line$k/name"; }; then
    result "FAIL cannot name line $k"
  fi
  k=$((k + 1))
done
echo 1 > "$cfg/live" || result "FAIL gpio-sim did not go live: $(dmesg | tail -3 | tr '\n' ' ')"
SIM_DEV=$(cat "$cfg/dev_name")
SIM_CHIP_NAME=$(cat "$cfg/bank0/chip_name")
SIM=/sys/devices/platform/$SIM_DEV/$SIM_CHIP_NAME
SIM_CHIP=/dev/$SIM_CHIP_NAME
SIM_LINES=$lines SIM_LABEL=$label
export SIM SIM_CHIP SIM_CHIP_NAME SIM_DEV SIM_LINES SIM_LABEL
[ -d "$SIM/sim_gpio0" ] || result "FAIL $SIM/sim_gpio0 missing"
i=0
while [ ! -c "$SIM_CHIP" ] && [ "$i" -lt 50 ]; do sleep 0.02; i=$((i + 1)); done
[ -c "$SIM_CHIP" ] || result "FAIL $SIM_CHIP did not appear"

# Idle wiring: buttons released and the switch open (Down) read high through
# pull-ups; every other line is pulled down (an idle output reads 0).
for k in ${VM_PULL_UP-17 22 23 27}; do
  echo pull-up > "$SIM/sim_gpio$k/pull" || result "FAIL cannot pull up line $k"
done
echo "VM-SIM: SIM=$SIM SIM_CHIP=$SIM_CHIP label=$label lines=$lines"

# ---------------------------------------------------------------- scenario
export OUT=/out VM_LIB=/vm/lib.sh
cd /tmp || result "FAIL no /tmp"
echo "VM-SCENARIO-START: uptime $(cut -d' ' -f1 /proc/uptime) s"
timeout_s=${VM_SCENARIO_TIMEOUT:-90}
sh -c '. /vm/lib.sh && . /vm/scenario.sh' < /dev/null &
pid=$!
(
  trap 'kill "$s" 2>/dev/null; exit 0' TERM
  sleep "$timeout_s" & s=$!
  wait "$s"
  echo "timed out after ${timeout_s} s" > /tmp/.vm-timeout
  kill -TERM "$pid" 2>/dev/null; sleep 2; kill -KILL "$pid" 2>/dev/null
) &
watchdog=$!
wait "$pid"
status=$?
kill -TERM "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
echo "VM-SCENARIO-END: status $status, uptime $(cut -d' ' -f1 /proc/uptime) s"

# Stop what the scenario left running (orphans are re-parented to this init):
# TERM first so it can flush its files, KILL after 3 s.
others() {
  read -r me _ < /proc/self/stat
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = 1 ] || [ "$p" = "$me" ] && continue
    ppid=
    while read -r key value; do
      [ "$key" = PPid: ] && { ppid=$value; break; }
    done < "/proc/$p/status" 2>/dev/null
    [ "$ppid" = 1 ] && echo "$p"    # kernel threads are children of kthreadd (2)
  done
}
left=$(others)
if [ -n "$left" ]; then
  echo "VM-CLEANUP: stopping $(for p in $left; do tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null; printf '; '; done)"
  kill -TERM $left 2>/dev/null
  i=0
  while [ -n "$(others)" ] && [ "$i" -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
  left=$(others)
  [ -n "$left" ] && kill -KILL $left 2>/dev/null
fi

if [ -f /tmp/.vm-timeout ]; then
  result "FAIL scenario $(cat /tmp/.vm-timeout)"
elif [ -s /tmp/.vm-fail ]; then
  result "FAIL $(head -1 /tmp/.vm-fail)"
elif [ "$status" != 0 ]; then
  result "FAIL scenario exited with status $status"
else
  result PASS
fi
