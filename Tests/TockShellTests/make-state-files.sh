#!/usr/bin/env bash
# Writes the state files of an earlier version into StateFilesV<N>/, with a
# tock built at the commit that wrote them: StateFilesV2/ with c789da3 (the
# last tock writing version 2 before the formats moved out of the core),
# StateFilesV3/ with 58dc149 (version 3, before each program saved its own
# case; it adds the situations extra timers and an interval's lead-in
# allow): `git worktree add --detach /tmp/old 58dc149 && (cd /tmp/old &&
# swift build --product tock)`, then
# `make-state-files.sh /tmp/old/.build/debug/tock 3`.
# Each file is what that tock saved in one situation; StateFileMigrationTests
# loads them with today's reader. The wall instants in them are those of the
# run that wrote them; the tests read them at instants of their own choosing.
set -euo pipefail
tock=$(realpath "$1")
version=$2
out=$(cd "$(dirname "$0")" && pwd)/StateFilesV$version
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
export TOCK_SOCKET=$work/control.sock

config() {  # config NAME: the file for one situation
    cat > "$work/config.yaml" <<YAML
mode: ${MODE:-timer}
switch: ${SWITCH:-down}
timer:
  presets: [5m, 10m, 1s]
  lead_in: ${LEAD_IN:-0s}
  overrun: true
interval:
  programs:
    - {name: tAbA, kind: tabata}
    - {name: A20, kind: amrap, cap: 20m}
countdown:
  until: 2031-12-24T18:00:00Z
alarms:
  - {at: "06:45", days: mon-fri, label: work}
  - {at: "09:00", days: [sat, sun]}
display:
  kind: none
buzzer:
  kind: none
YAML
}

# one NAME COMMAND...: start tock on a fresh state, run the commands
# (each a `tock` command line, or `sleep N`), stop tock, keep its state.
one() {
    local name=$1; shift
    rm -f "$work/state.json"
    "$tock" run --backend mock --config "$work/config.yaml" --state "$work/state.json" --socket "$TOCK_SOCKET" 2>"$work/$name.log" &
    local pid=$!
    for _ in $(seq 100); do [ -S "$TOCK_SOCKET" ] && break; sleep 0.1; done
    for c in "$@"; do
        case $c in
            sleep*) $c ;;
            # hup LIST: the file's presets become LIST, and tock is told
            hup*) sed -i "s/presets: \[5m, 10m, 1s\]/presets: ${c#hup }/" "$work/config.yaml"; kill -HUP $pid; sleep 0.5 ;;
            *) eval "\"$tock\" $c" >/dev/null ;;
        esac
    done
    sleep 0.3
    kill -INT $pid; wait $pid || true
    cp "$work/state.json" "$out/$name.json"
    echo "$name: $(cat "$out/$name.json")"
}

config; one timer-running "set 12m30s" start
config; one timer-paused start "sleep 1.2" stop
config; one timer-ringing-overrun "set 1s" start "sleep 2.5"
LEAD_IN=10s config; one timer-lead-in start "sleep 0.5"
MODE=stopwatch SWITCH=up config; one stopwatch-running start "sleep 1"
MODE=interval config; one interval-amrap-rounds "program A20" start "sleep 0.3" start "sleep 0.3" start
MODE=interval config; one interval-tabata-paused start "sleep 1" stop
MODE=countdown config; one countdown-counting
config; one alarms-dimming-edits "brightness 3" "night 22:00 07:00 1" "alarm add 07:15 daily --label tea" "alarm off 1" "set 7m"
config; one presets-set-aside "set 7m" "hup [2m, 3m]"
if [ "$version" -ge 3 ]; then
    config; one timers-kitchen "timer add EGG 6m" "timer add RICE 20m" "timer pause RICE" "timer add TEA 1s" "sleep 1.5"
    MODE=interval LEAD_IN=10s config; one interval-lead-in start "sleep 0.5"
fi
