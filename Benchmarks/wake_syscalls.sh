#!/usr/bin/env bash
# System calls a wake-up while counting down MM:SS, counted by strace for
# each tock given, side by side in one run (the same configuration as
# tick_cost.sh: no display or buzzer driver, so the calls are the
# appliance's own: the loop, the clock, the state). A wake-up is one return
# of epoll_wait; adjtimex(2) is clock_adjtime on x86_64 and arm64.
#
#   Benchmarks/wake_syscalls.sh NAME=TOCK [NAME=TOCK ...]   (make bench-syscalls)
#
# Start is pressed, and the calls of the 20 s from 3 s later are counted.
set -euo pipefail
seconds=20
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure TOCK: "wake-ups calls calls/wake adjtimex/wake"
measure() {
    local tock=$1 d pid start end
    d=$(mktemp -d -p "$work")
    printf 'mode: timer\nswitch: down\ntimer: {presets: [600s]}\nalarm: {chirp: false}\ndisplay: {kind: none}\nbuzzer: {kind: none}\n' >"$d/config.yaml"
    mkfifo "$d/in"
    exec 3<>"$d/in"
    strace -f -qq -ttt -o "$d/trace" "$tock" run --backend mock --config "$d/config.yaml" --mock-input "$d/in" \
        --state "$d/state.json" 2>"$d/log" &
    pid=$!
    sleep 3
    echo "start 1 0" >&3; sleep 0.2; echo "start 0 0" >&3
    sleep 3
    start=$(date +%s.%N)
    sleep "$seconds"
    end=$(date +%s.%N)
    pkill -INT -P "$pid" || true; wait "$pid" || true
    exec 3>&-
    python3 - "$d/trace" "$start" "$end" <<'PY'
import re, sys
path, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
calls = wakes = adj = 0
for line in open(path):
    m = re.match(r"\d+\s+(\d+\.\d+)\s+(?:<\.\.\. )?(\w+)", line)
    if not m or not (start <= float(m.group(1)) < end) or "resumed>" in line and "<..." not in line:
        continue
    if "<unfinished ...>" in line:
        continue  # counted where it resumes
    name = m.group(2)
    calls += 1
    if name in ("epoll_wait", "epoll_pwait", "epoll_pwait2"):
        wakes += 1
    if name in ("clock_adjtime", "adjtimex"):
        adj += 1
print(f"{wakes} {calls} {calls / max(wakes, 1):.2f} {adj / max(wakes, 1):.2f}")
PY
}

printf '| build | wake-ups in %d s | system calls | calls a wake-up | adjtimex a wake-up |\n|---|---|---|---|---|\n' "$seconds"
for arg in "$@"; do
    name=${arg%%=*} tock=${arg#*=}
    read -r wakes calls per adj < <(measure "$tock")
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$wakes" "$calls" "$per" "$adj"
done
