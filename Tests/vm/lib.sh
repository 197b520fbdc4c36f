# Helpers for VM scenarios (busybox sh). /init sources this file before the
# scenario. A LINE is a sim line name (GPIO17) or its offset (17); line K is
# named GPIOK. The environment gives SIM (the sim chip's sysfs directory),
# SIM_CHIP (/dev/gpiochipN) and OUT (/out: files written there reach the host).

# line_dir LINE: the sysfs directory of a sim line
line_dir() {
  _k=${1#GPIO}
  case $_k in ''|*[!0-9]*) fail "not a sim line: '$1' (use GPIO<K> or <K>)" ;; esac
  [ -d "$SIM/sim_gpio$_k" ] || fail "no sim line $1 under $SIM"
  echo "$SIM/sim_gpio$_k"
}

# log MSG...: a line on the console, stamped with the VM's uptime
log() { read -r _up _ < /proc/uptime; echo "[$_up] $*"; }

# fail MSG...: the scenario fails with MSG (printed as the VM-RESULT reason).
# Inside $(...) or a pipeline only that subshell exits, but the failure is
# recorded and the result is FAIL anyway.
fail() {
  echo "FAIL: $*" >&2
  [ -s /tmp/.vm-fail ] || echo "$*" > /tmp/.vm-fail
  exit 1
}

# pull LINE pull-up|pull-down: what the outside world does to an input
pull() {
  _d=$(line_dir "$1") || exit 1
  echo "$2" > "$_d/pull" || fail "cannot set $1 to $2"
}

# hold LINE: press a button (active low: pull the line to GND) and keep it down
hold() { pull "$1" pull-down; }

# release LINE: let a button go (its pull-up brings the line back high)
release() { pull "$1" pull-up; }

# press LINE [SECONDS]: press a button, hold it SECONDS (default 0.08), release it
press() {
  hold "$1"
  sleep "${2:-0.08}"
  release "$1"
}

# set_switch up|down: the Up/Down switch on GPIO23 (closed to GND = up)
set_switch() {
  case $1 in
    up) pull GPIO23 pull-down ;;
    down) pull GPIO23 pull-up ;;
    *) fail "set_switch up|down, not '$1'" ;;
  esac
}

# value LINE: the level a consumer drives on an output line (0 or 1); a line
# nobody drives reads its pull
value() {
  _d=$(line_dir "$1") || exit 1
  cat "$_d/value"
}

# wait_for_value LINE 0|1 TIMEOUT: poll an output until it reads the value;
# returns 1 after TIMEOUT seconds
wait_for_value() {
  _deadline "$3"
  while :; do
    [ "$(value "$1")" = "$2" ] && return 0
    _expired && return 1
    sleep 0.02
  done
}

# wait_for_file_line FILE PATTERN TIMEOUT: poll FILE until a line matches the
# extended regular expression PATTERN; prints the first matching line and
# returns 0, or returns 1 after TIMEOUT seconds (a missing file counts as empty)
wait_for_file_line() {
  _deadline "$3"
  while :; do
    grep -E -m1 -- "$2" "$1" 2>/dev/null && return 0
    _expired && return 1
    sleep 0.02
  done
}

# wait_for_exit PID TIMEOUT: wait until a background process has exited;
# returns 1 if it still runs after TIMEOUT seconds
wait_for_exit() {
  _deadline "$2"
  while :; do
    kill -0 "$1" 2>/dev/null || return 0
    _expired && return 1
    sleep 0.02
  done
}

# expect_file_line FILE PATTERN TIMEOUT [WHAT]: wait_for_file_line or fail,
# showing the file's last lines
expect_file_line() {
  wait_for_file_line "$1" "$2" "$3" && return 0
  echo "--- last lines of $1:" >&2; tail -n 15 "$1" >&2 2>/dev/null
  fail "${4:-no line matching '$2' in $1} within $3 s"
}

# save FILE [NAME]: copy a file to $OUT so it reaches the host
save() { cp "$1" "$OUT/${2:-$(basename "$1")}"; }

# uptime_ms: the VM's uptime in milliseconds (a monotonic clock for scenarios)
uptime_ms() { _uptime_cs; echo $((_cs * 10)); }

# Deadlines on the uptime clock (centiseconds), without forking: a poll costs
# tens of milliseconds under TCG, so counting polls would stretch timeouts.
_uptime_cs() {
  read -r _up _ < /proc/uptime
  _cs=${_up%.*}${_up#*.}
  while [ "${_cs#0}" != "$_cs" ]; do _cs=${_cs#0}; done
  _cs=${_cs:-0}
}
_deadline() {   # _deadline SECONDS (e.g. 5, 0.5, 2.25)
  case $1 in
    *.*) _i=${1%%.*} _f=${1#*.}00 ;;
    *) _i=$1 _f=00 ;;
  esac
  _f=${_f%"${_f#??}"}
  while [ "${_f#0}" != "$_f" ]; do _f=${_f#0}; done
  _uptime_cs
  _until=$((_cs + ${_i:-0} * 100 + ${_f:-0}))
}
_expired() { _uptime_cs; [ "$_cs" -ge "$_until" ]; }

# sim_base: the global number of the sim chip's first line (tracepoints
# name lines by it), from debugfs (mounted by the caller) or sysfs
sim_base() {
  _b=$(sed -n "s/^ *gpiochip[0-9]*: GPIOs \([0-9]*\)-.*$SIM_LABEL.*/\1/p" /sys/kernel/debug/gpio 2>/dev/null | head -1)
  if [ -z "$_b" ]; then
    for _c in /sys/class/gpio/gpiochip*; do
      [ "$(cat "$_c/label" 2>/dev/null)" = "$SIM_LABEL" ] && _b=$(cat "$_c/base")
    done
  fi
  [ -n "$_b" ] || fail "cannot find the global number of $SIM_LABEL's first line"
  echo "$_b"
}
