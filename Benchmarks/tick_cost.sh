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
# The counters are zeroed 2 s into the count and read 10 s later.
set -euo pipefail
seconds=10
port=$((20000 + RANDOM % 20000))
work=$(mktemp -d)
mosquitto -p "$port" >"$work/mosquitto.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=Benchmarks/counted.sh
source "$(dirname "$0")/counted.sh"

# measure TOCK MODE SWITCH EXTRA: instructions a second
measure() {
    local tock=$1 mode=$2 switch=$3 extra=$4 d
    d=$(mktemp -d -p "$work")
    printf 'mode: %s\nswitch: %s\ntimer: {presets: [600s]}\nalarm: {chirp: false}\ndisplay: {kind: none}\nbuzzer: {kind: none}\n%b' \
        "$mode" "$switch" "$extra" >"$d/config.yaml"
    # valgrind 3.19 cannot read this toolchain's DWARF 5: drop it.
    strip --strip-debug -o "$d/tock" "$tock"
    counted_start "$d" "$d/tock"
    sleep 2
    counted_window $seconds
    local total
    total=$(python3 "$(dirname "$0")/callgrind.py" totals "$d"/cg.out.*)
    echo $((total / seconds))
}

printf '| build | count-down MM:SS | stopwatch | count-down, MQTT link up |\n|---|---|---|---|\n'
for arg in "$@"; do
    name=${arg%%=*} tock=${arg#*=}
    countdown=$(measure "$tock" timer down "")
    stopwatch=$(measure "$tock" stopwatch up "")
    mqtt=$(measure "$tock" timer down "mqtt: {host: 127.0.0.1, port: $port, client_id: bench-$name}\n")
    printf '| %s | %s | %s | %s |\n' "$name" "$countdown" "$stopwatch" "$mqtt"
done
