#!/usr/bin/env bash
# What each extra timer costs a second of counting, counted rather than
# timed: user-space instructions a second under callgrind for one tock, with
# the box's own count-down (10 minutes, MM:SS) on the display and 0, 1, 4
# and 8 extra timers running behind it (ending later, so not shown), side
# by side in one run; then 8 with one of them shown. display.kind and
# buzzer.kind none, as in tick_cost.sh.
#
#   Benchmarks/timers_cost.sh TOCK     (make bench-timers)
#
# The counters are zeroed 2 s after the last timer was added and read 10 s
# later. Beside the instructions a second (which move by a tick's worth when
# 10 or 11 wake-ups fall in the window), the instructions of one quiet tick
# (`Machine.quietTick`, inclusive, over its calls: the same whatever the
# window) and of one full batch (`Machine.handle` calls that were not quiet).
set -euo pipefail
tock=$1
seconds=10
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=Benchmarks/counted.sh
source "$(dirname "$0")/counted.sh"
strip --strip-debug -o "$work/tock" "$tock"  # valgrind 3.19 cannot read this toolchain's DWARF 5
client=$tock

# measure N MINUTES: instructions a second with N extra timers of MINUTES each
measure() {
    local n=$1 minutes=$2 d i
    d=$(mktemp -d -p "$work")
    printf 'timer: {presets: [600s]}\nalarm: {chirp: false}\ndisplay: {kind: none}\nbuzzer: {kind: none}\n' >"$d/config.yaml"
    counted_start "$d" "$work/tock" --socket "$d/ctl.sock" --control-timeout 60s
    for ((i = 1; i <= n; i++)); do
        "$client" timer add --socket "$d/ctl.sock" --timeout 30s "A$i" "$((minutes + i))m" >/dev/null
    done
    sleep 2
    counted_window $seconds
    PYTHONPATH="$(dirname "$0")" python3 - "$seconds" "$d"/cg.out.* <<'PY'
import sys
import callgrind
seconds, dumps = int(sys.argv[1]), sys.argv[2:]
total = callgrind.total(dumps)
qn, qc = callgrind.calls_matching(dumps, r"MachineV9quietTick")
hn, hc = callgrind.calls_matching(dumps, r"MachineV6handle_2at")
full = (hc - qc) // max(hn - qn, 1) if hn > qn else 0
print(total // seconds, qc // max(qn, 1), qn, full, hn - qn)
PY
}

printf '| extra timers running | instructions a second | one quiet tick | quiet ticks | one full batch | full batches | a quiet tick more than with none, per timer |\n|---|---|---|---|---|---|---|\n'
read -r _ q0 _ _ _ < <(measure 0 60 | tee "$work/0")
row() { printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7"; }
read -r a b c d e <"$work/0"; row 0 "$a" "$b" "$c" "$d" "$e" ""
for n in 1 4 8; do
    read -r a b c d e < <(measure $n 60)
    row "$n (not shown)" "$a" "$b" "$c" "$d" "$e" "$(( (b - q0) / n ))"
done
read -r a b c d e < <(measure 8 0)
row "8, one of them shown" "$a" "$b" "$c" "$d" "$e" "$(( (b - q0) / 8 ))"
