#!/usr/bin/env bash
# The address on the display against a real kernel (docs/display.md, "The
# address on the display"): in a network namespace of its own (unshare -n,
# root) with veth interfaces, addresses added with ip(8) reach the real
# tock binary through its rtnetlink socket, and the trace shows the line
# that scrolls and its frames. Both ways a box runs: `tock run --backend
# mock` (the service's wiring, buttons through --mock-input) and `tock sim`
# in a real terminal (tmux). Loopback and link-local addresses do not
# scroll; an address that appears during a count waits for the reset; Stop
# held in ready shows it again; 300 addresses at once leave tock answering
# with at most 16 in its status. Real time: about 40 s, every wait bounded.
#
#   Tests/network/address-display-test.sh [TOCK]
set -euo pipefail
tock=$(realpath "${1:-.build/debug/tock}")
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root for a network namespace (unshare -n) and ip(8); run as root"
command -v ip >/dev/null || fail "ip(8) is missing (apt-get install iproute2)"
command -v tmux >/dev/null || fail "tmux is missing (apt-get install tmux)"
if [ "${TOCK_IN_NETNS:-}" != 1 ]; then
  exec env TOCK_IN_NETNS=1 unshare -n "$0" "$tock"
fi
t0=$(date +%s.%N)
work=$(mktemp -d)
tmuxs() { command tmux -L "tock-addr-$$" "$@"; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  tmuxs kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }

ip link set lo up
# veth pairs (a dummy device needs a module that a container may lack);
# an address on one end is the kernel's like any other.
for i in 0 1; do
  ip link add "dum$i" type veth peer name "peer$i"
  ip link set "dum$i" up && ip link set "peer$i" up
done
name="$(hostname | cut -d. -f1).local"
printf 'timer:\n  presets: [20s]\n' > "$work/config.yaml"

# wait_for FILE PATTERN WHAT [TENTHS]: until a line of FILE matches (grep -E).
wait_for() {
  for _ in $(seq 1 "${4:-100}"); do
    grep -Eq -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "--- $1:"; tail -40 "$1" || true
  fail "$3: no line matching '$2' within $(( ${4:-100} / 10 )) s"
}
# never FILE PATTERN WHAT: still no such line after 1.5 s (what must not happen).
never() {
  sleep 1.5
  if grep -Eq -- "$2" "$1"; then grep -E -- "$2" "$1" | tail -3; fail "$3"; fi
}
count() { grep -c -- "$2" "$1" || true; }
# shown FILE TEXT WHAT: until the display's last frame in FILE is TEXT (15 s).
shown() {
  for _ in $(seq 1 150); do
    [ "$(grep '"display"' "$1" | tail -1 | sed 's/.*"display":"\(.*\)"}$/\1/')" = "$2" ] && return 0
    sleep 0.1
  done
  echo "--- $1:"; tail -20 "$1"; fail "$3: the display does not end on '$2'"
}

# ------------------------------------------------------------ tock run, mock backend
mkfifo "$work/in"
"$tock" run --backend mock --config "$work/config.yaml" --state "$work/state.json" --socket "$work/control.sock" \
  --trace "$work/run.jsonl" --mock-input "$work/in" > "$work/run.log" 2>&1 &
pids+=($!)
exec 3<>"$work/in"  # held open: tock's reads never see the writer gone
trace=$work/run.jsonl
wait_for "$trace" '"display":"00:20"' "tock run starts"
ip addr add 169.254.7.7/16 dev dum0
ip addr add 127.0.0.9/8 dev lo
never "$trace" '"address"' "a link-local or loopback address scrolled"
ok "link-local (169.254.7.7) and loopback (127.0.0.9) addresses do not scroll"

ip addr add 10.77.0.5/24 dev dum0
wait_for "$trace" "\"address\":\"10.77.0.5  $name\"" "a new address scrolls"
wait_for "$trace" '"display":"  10."' "the scroll's frames" 20
wait_for "$trace" '"display":"10.77."' "the scroll's frames" 20
ok "10.77.0.5 added: the trace shows '10.77.0.5  $name' scrolling (frames '  10.', '10.77.')"
shown "$trace" "00:20" "the timer's display after the scroll"
ok "the timer's display is back after the scroll"

ip addr add 10.88.0.1/24 dev dum1
wait_for "$trace" "\"address\":\"10.77.0.5  10.88.0.1  $name\"" "a second address"
ok "a second interface's address: both scroll, by interface index"
shown "$trace" "00:20" "the timer's display after the scroll"

# Stop held in ready (mock lines: 1 pressed, 0 released).
before=$(count "$trace" '"address"')
echo "stop 1" >&3; sleep 1.3; echo "stop 0" >&3
wait_for "$trace" '"address".*10.88.0.1' "Stop held" 30
[ "$(count "$trace" '"address"')" -gt "$before" ] || fail "Stop held in ready did not scroll the address"
ok "Stop held 1.3 s in ready scrolls the address again"
shown "$trace" "00:20" "the timer's display after the scroll"

# A count: an address that appears meanwhile waits for the reset.
echo "start 1" >&3; sleep 0.1; echo "start 0" >&3
wait_for "$trace" '"state":"running"' "Start"
before=$(count "$trace" '"address"')
ip addr add 10.99.0.1/24 dev dum1
never "$trace" '"address".*10.99.0.1' "an address scrolled over a running count"
echo "stop 1" >&3; sleep 0.1; echo "stop 0" >&3
wait_for "$trace" '"state":"paused"' "Stop"
echo "reset 1" >&3; sleep 0.1; echo "reset 0" >&3
wait_for "$trace" '"address".*10.99.0.1' "the waiting address after the reset" 30
ok "10.99.0.1 added during a count: it scrolls once the count is reset, not before"
grep -q "display: the address scrolls: 10.77.0.5" "$work/run.log" || fail "the log does not say the address scrolled: $(tail -5 "$work/run.log")"
ok "the log says what scrolled"

# A flood: 300 addresses added as fast as ip(8) goes. tock keeps answering,
# its status lists at most 16, and the display ends on the timer.
"$tock" status --socket "$work/control.sock" | grep -q "address 10.77.0.5, 10.88.0.1, 10.99.0.1" \
  || fail "tock status does not list the addresses: $("$tock" status --socket "$work/control.sock")"
ok "tock status lists the addresses"
before=$(count "$trace" '"address"')
ip -batch - <<<"$(for i in $(seq 1 300); do echo "addr add 10.66.$((i / 200)).$((i % 200 + 1))/32 dev dum1"; done)"
for _ in $(seq 1 50); do [ "$(count "$trace" '"address"')" -gt "$before" ] && break; sleep 0.1; done
[ "$(count "$trace" '"address"')" -gt "$before" ] || fail "the flood's new addresses did not scroll"
status=$("$tock" status --socket "$work/control.sock")
n=$(echo "$status" | grep -o '10\.[0-9]*\.[0-9]*\.[0-9]*' | wc -l)
[ "$n" -le 16 ] || fail "tock status lists $n addresses after the flood, not at most 16: $status"
shown "$trace" "00:20" "the timer's display after the flood"
ok "300 addresses at once: tock answers, its status lists $n, the display is the timer's again"
ip addr flush dev dum1

# ------------------------------------------------------------ tock sim in a terminal
ip addr flush dev dum1
tmuxs new-session -d -s sim -x 100 -y 30 \
  "XDG_RUNTIME_DIR=$work NO_COLOR=1 $tock sim --config $work/config.yaml --trace $work/sim.jsonl; sleep 60"
wait_for "$work/sim.jsonl" '"display":"00:20"' "tock sim starts"
ip addr add 10.55.0.2/24 dev dum1
wait_for "$work/sim.jsonl" "\"address\":\"10.77.0.5  10.55.0.2  $name\"" "the simulator shows a new address"
wait_for "$work/sim.jsonl" '"display":"  10."' "the simulator's frames" 20
ok "tock sim: 10.55.0.2 added, the address scrolls on its display"
tmuxs send-keys -t sim q

echo "address-display: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
echo "$passed passed, 0 failed"
