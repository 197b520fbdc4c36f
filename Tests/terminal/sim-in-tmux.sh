#!/usr/bin/env bash
# The interactive desk simulator in a real terminal (tmux): keys press the
# mock buttons, the big digits and the state line follow, `q` quits and
# the terminal is restored; the idle clock and the alarm list. Real time:
# about 10 s.
set -euo pipefail
tock=${1:-.build/debug/tock}
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (make deps installs it)"; exit 1; }
work=$(mktemp -d)
session=tock-term-$$
# A tmux server of its own: another server on the default socket (a person's,
# another test's) exiting as a session here begins cannot break the run
# ("server exited unexpectedly").
tmux() { command tmux -L "tock-term-$$" "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
# A session that outlives the others: the server never exits between two
# of them (a session begun while it exits is what fails).
tmux new-session -d -s keep "sleep 600"
printf 'timer:\n  presets: [3s]\nleds: [running, ringing]\n' > "$work/config.yaml"

# The simulator serves the control socket in the user's runtime directory,
# where `tock status` looks when no service runs here.
mkdir -m 700 "$work/xdg"
export XDG_RUNTIME_DIR=$work/xdg
client=()
[ -e /run/tock/control.sock ] && client=(--socket "$work/xdg/tock/control.sock")  # a service runs here: name the simulator's
tmux new-session -d -s $session -x 100 -y 30 \
  "stty -a > $work/stty.before; XDG_RUNTIME_DIR=$work/xdg NO_COLOR=1 $tock sim --config $work/config.yaml --trace $work/trace.jsonl; echo \"EXITED \$?\" > $work/rc; stty -a > $work/stty.after; sleep 60"

screen() { tmux capture-pane -p -t $session; }
# Wait (bounded) until the screen contains a line matching a pattern.
wait_for() {
  for _ in $(seq 1 100); do
    if screen | grep -q -- "$1"; then return 0; fi
    sleep 0.05
  done
  echo "FAIL: the screen never showed '$1'; it shows:"; screen; exit 1
}
# The big digits for a display text, as tock render draws them.
digits() { "$tock" render -- "$1" | head -5 | sed 's/[[:space:]]*$//'; }
shows_digits() {
  local want; want=$(digits "$1")
  for _ in $(seq 1 100); do
    if screen | sed -n '3,7p' | sed 's/^  //; s/[[:space:]]*$//' | diff -q - <(echo "$want") >/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "FAIL: the display never showed $1; it shows:"; screen; cat "$work"/*.jsonl 2>/dev/null | tail -12; exit 1
}

wait_for "state: ready"
shows_digits "00:03"
tmux send-keys -t $session s
wait_for "state: running"
wait_for "● running"
wait_for "state: ringing"
shows_digits "00:00"
tmux send-keys -t $session x
wait_for "state: done"
wait_for "buzzer: off"
tmux send-keys -t $session u
wait_for "switch: up"
shows_digits "00:00"
# The command line reaches the same box: status, a press that changes
# nothing said in words (exit 1), and one that acts.
wait_for "this box answers tock status"
st=$("$tock" status "${client[@]}") || { echo "FAIL: tock status on the simulator's socket: $st"; exit 1; }
echo "$st" | grep -q '^ready, display "00:00", .*switch up' || { echo "FAIL: tock status said: $st"; exit 1; }
if out=$("$tock" stop "${client[@]}" 2>&1); then echo "FAIL: tock stop in ready answered ok: $out"; exit 1; fi
echo "$out" | grep -q "Stop does nothing in ready" || { echo "FAIL: tock stop in ready said: $out"; exit 1; }
"$tock" start "${client[@]}" >/dev/null || { echo "FAIL: tock start in ready"; exit 1; }
wait_for "state: running"
tmux send-keys -t $session q
for _ in $(seq 1 100); do [ -s "$work/rc" ] && break; sleep 0.05; done
grep -q "EXITED 0" "$work/rc" || { echo "FAIL: tock sim did not exit 0: $(cat "$work/rc" 2>/dev/null)"; exit 1; }
for _ in $(seq 1 40); do [ -s "$work/stty.after" ] && break; sleep 0.05; done
diff <(tr ' ' '\n' < "$work/stty.before" | grep -E '^-?(icanon|echo)$') \
     <(tr ' ' '\n' < "$work/stty.after" | grep -E '^-?(icanon|echo)$') \
  || { echo "FAIL: the terminal was not restored"; exit 1; }
grep -q '"state":"ringing"' "$work/trace.jsonl" || { echo "FAIL: the real-time trace has no ringing"; exit 1; }
[ ! -e "$work/xdg/tock/control.sock" ] || { echo "FAIL: the simulator left its control socket behind"; exit 1; }

# The idle clock on the real clock, the press that only wakes it, and the
# alarm list behind a long Start.
tmux kill-session -t $session
printf 'timer:\n  presets: [3s]\ndisplay: {idle: clock, idle_after: 3s}\nclock: {zone: UTC, colon: steady, require_sync: false}\nalarms: [{at: "23:59"}]\n' > "$work/clock.yaml"
tmux new-session -d -s $session -x 100 -y 30 "NO_COLOR=1 $tock sim --config $work/clock.yaml --trace $work/clock.jsonl; sleep 60"
wait_for "state: ready"
shows_digits "00:03"
# The time of day, now or a minute later (the check may straddle a minute).
clock_shows() {
  for _ in $(seq 1 100); do
    for t in "$(date -u +%H:%M)" "$(date -u -d '+1 min' +%H:%M)"; do
      screen | sed -n '3,7p' | sed 's/^  //; s/[[:space:]]*$//' | diff -q - <(digits "$t") >/dev/null && return 0
    done
    sleep 0.05
  done
  echo "FAIL: the idle clock never showed the time of day; the screen shows:"; screen; exit 1
}
clock_shows
tmux send-keys -t $session s
shows_digits "00:03"
wait_for "state: ready"
# A key is a press held 100 ms; the same button again within it would be
# the same press, so let this one end first.
sleep 0.2
tmux send-keys -t $session S
shows_digits "AL 1"
tmux send-keys -t $session r
shows_digits "00:03"
wait_for "state: ready"

# In colour, on an 80-column terminal: the key line fits on one line, and
# the digits read right even where colour is lost (capture-pane drops it):
# unlit segments are light dotted strokes, lit ones heavy.
tmux kill-session -t $session
tmux new-session -d -s $session -x 80 -y 24 "TERM=xterm-256color $tock sim --config $work/config.yaml; sleep 60"
wait_for "^keys: .* q quit$"
for _ in $(seq 1 100); do
  screen | sed -n '3,7p' | sed 's/^  //; s/[┈┊·]/ /g; s/[[:space:]]*$//' | diff -q - <(digits "00:03") >/dev/null && break
  sleep 0.05
done
screen | sed -n '3,7p' | sed 's/^  //; s/[┈┊·]/ /g; s/[[:space:]]*$//' | diff - <(digits "00:03") \
  || { echo "FAIL: without its colours the display does not read 00:03"; screen; exit 1; }
screen | sed -n '3,7p' | grep -q '┈' || { echo "FAIL: unlit segments are not drawn as dotted strokes"; screen; exit 1; }
echo "terminal: 3 passed, 0 failed"
