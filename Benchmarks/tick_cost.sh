#!/usr/bin/env bash
# The cost of a second of counting, counted rather than timed: user-space
# instructions a second under callgrind (the same binary and inputs give the
# same count, whatever else the machine is doing), for each tock given, side
# by side in one run: a count-down showing MM:SS, the stopwatch (100 frames a
# second), and the count-down with the MQTT link up to a local mosquitto.
# No display or buzzer driver (display.kind and buzzer.kind none), so the
# figure is the appliance's own work: the core, the shell, the loop and the
# link, as on a board; `make bench-tm1637` counts a TM1637 frame apart.
#
#   Benchmarks/tick_cost.sh NAME=TOCK [NAME=TOCK ...]   (make bench-tick)
#
# The counters are zeroed 2 s into the count and read about 10 s later.
# Valgrind acts on callgrind_control at the program's next wake-up, so the
# window runs from one of the count's ticks to another and holds 10 or 11
# of them: the figure is the window's instructions over its seconds of
# counting, the core's ticks in it (Shell.handle with a timer served) over
# the ticks a second the display needs (1 for MM:SS, 100 for the
# stopwatch's hundredths).
set -euo pipefail
seconds=10
port=$((20000 + RANDOM % 20000))
work=$(mktemp -d)
mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=Benchmarks/counted.sh
source "$(dirname "$0")/counted.sh"

# measure TOCK MODE SWITCH TICKS_A_SECOND EXTRA: instructions a second
measure() {
    local tock=$1 mode=$2 switch=$3 rate=$4 extra=$5 d
    d=$(mktemp -d -p "$work")
    printf 'mode: %s\nswitch: %s\ntimer: {presets: [600s]}\nalarm: {chirp: false}\ndisplay: {kind: none}\nbuzzer: {kind: none}\n%b' \
        "$mode" "$switch" "$extra" >"$d/config.yaml"
    # valgrind 3.19 cannot read this toolchain's DWARF 5: drop it.
    strip --strip-debug -o "$d/tock" "$tock"
    counted_start "$d" "$d/tock"
    sleep 2
    counted_window $seconds
    python3 - "$(dirname "$0")" "$rate" "$d"/cg.out.* <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import callgrind
rate, paths = int(sys.argv[2]), sys.argv[3:]
ticks, _ = callgrind.calls_matching(paths, r"TockShell0B0C6handle_12clockChanged6served")
print(callgrind.total(paths) * rate // max(ticks, 1))
PY
}

printf '| build | count-down MM:SS | stopwatch | count-down, MQTT link up |\n|---|---|---|---|\n'
for arg in "$@"; do
    name=${arg%%=*} tock=${arg#*=}
    countdown=$(measure "$tock" timer down 1 "")
    stopwatch=$(measure "$tock" stopwatch up 100 "")
    mqtt=$(measure "$tock" timer down 1 "mqtt: {host: 127.0.0.1, port: $port, client_id: bench-$name}\n")
    printf '| %s | %s | %s | %s |\n' "$name" "$countdown" "$stopwatch" "$mqtt"
done
