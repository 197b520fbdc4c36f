#!/usr/bin/env bash
# The deployment files: the systemd unit, the example configuration, the udev
# rule, install.sh (into a directory, never this machine's system) and the
# .deb. Runs in well under a minute once the release binary is built.
#
#   Tests/deploy/deploy-test.sh
#
#   TOCK_BIN=PATH   the tock binary to test with (default: the release build
#                   make deb uses, .build-release/release/tock)
#   TOCK_DEB=PATH   the package to inspect (default: the newest
#                   .build/deb/tock_*.deb; built with make deb if there is none)
#
# Prints "deploy: N passed, M failed" and exits non-zero on any failure.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
deploy=$repo/deploy
cd "$repo" || exit 1
started=$(date +%s%N)

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/     | /'; }
# check NAME COMMAND...: passes when the command succeeds; its output is
# shown on failure.
check() {
  local name=$1 out; shift
  if out=$("$@" 2>&1); then ok "$name"; else fail "$name" "$out"; fi
}
finish() {
  local ms=$((($(date +%s%N) - started) / 1000000))
  echo "deploy: $passed passed, $failed failed ($((ms / 1000)).$((ms % 1000 / 100)) s)"
  [ "$failed" = 0 ]
  exit
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---------------------------------------------------------------- the .deb and the binary
arch=$(dpkg --print-architecture)
version=$(if [ -f "$repo/VERSION" ]; then cat "$repo/VERSION"; elif [ -f "$deploy/VERSION" ]; then cat "$deploy/VERSION"; else echo 0.1.0; fi | tr -d ' \t\n')
deb=${TOCK_DEB:-$repo/.build/deb/tock_${version}_${arch}.deb}
if [ ! -f "$deb" ]; then
  echo "deploy-test: no $deb yet; building it (make deb)"
  make -C "$repo" --no-print-directory deb >/dev/null || { fail "make deb"; finish; }
fi
tock=${TOCK_BIN:-$repo/.build-release/release/tock}
if [ ! -x "$tock" ]; then
  fail "tock binary" "$tock is missing: run make deb (or set TOCK_BIN)"
  finish
fi
echo "deploy-test: binary $tock"
echo "deploy-test: package $deb"

for f in tock.service config.yaml 99-tock-gpio.rules install.sh build-deb.sh VERSION; do
  [ -f "$deploy/$f" ] || fail "deploy/$f exists"
done
check "install.sh and build-deb.sh parse (bash -n)" bash -n "$deploy/install.sh" "$deploy/build-deb.sh"
check "install.sh and build-deb.sh are executable" test -x "$deploy/install.sh" -a -x "$deploy/build-deb.sh"

# ---------------------------------------------------------------- the unit
if ! command -v systemd-analyze >/dev/null; then
  echo "deploy-test: installing systemd (for systemd-analyze)"
  sudo=$( [ "$(id -u)" = 0 ] || echo sudo )
  $sudo apt-get update -q >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q systemd >/dev/null
fi
# systemd-analyze verify insists that ExecStart's program exists; it is
# checked on a copy whose ExecStart names the binary under test (the copy
# keeps the file name, which verify uses as the unit name).
mkdir -p "$tmp/unit"
sed "s|^ExecStart=/usr/bin/tock |ExecStart=$tock |" "$deploy/tock.service" > "$tmp/unit/tock.service"
check "the unit names /usr/bin/tock run --config /etc/tock/config.yaml" \
  grep -qx 'ExecStart=/usr/bin/tock run --config /etc/tock/config.yaml' "$deploy/tock.service"
if out=$(systemd-analyze verify "$tmp/unit/tock.service" 2>&1) && [ -z "$out" ]; then
  ok "systemd-analyze verify tock.service (no errors, no warnings)"
else
  fail "systemd-analyze verify tock.service (no errors, no warnings)" "$out"
fi
# tock-web's unit: verified the same way (its ExecStart on a stand-in
# executable), an unprivileged user in the tock group, port 80 by a
# capability and nothing else, after tock.
web_bin=${TOCK_WEB_BIN:-$(dirname "$tock")/tock-web}
[ -x "$web_bin" ] || web_bin=/bin/true
sed "s|^ExecStart=/usr/bin/tock-web |ExecStart=$web_bin |" "$deploy/tock-web.service" > "$tmp/unit/tock-web.service"
if out=$(cd "$tmp/unit" && systemd-analyze verify "$tmp/unit/tock-web.service" 2>&1) && [ -z "$out" ]; then
  ok "systemd-analyze verify tock-web.service (no errors, no warnings)"
else
  fail "systemd-analyze verify tock-web.service (no errors, no warnings)" "$out"
fi
missing=
for line in 'User=tock-web' 'SupplementaryGroups=tock' 'AmbientCapabilities=CAP_NET_BIND_SERVICE' \
            'CapabilityBoundingSet=CAP_NET_BIND_SERVICE' 'After=tock.service network.target' 'NoNewPrivileges=yes' 'StateDirectory=tock-web'; do
  grep -qxF -- "$line" "$deploy/tock-web.service" || missing+="$line "
done
if [ -z "$missing" ]; then ok "tock-web.service: its own user in the tock group, only CAP_NET_BIND_SERVICE, after tock"; else fail "tock-web.service: its own user in the tock group, only CAP_NET_BIND_SERVICE, after tock" "missing: $missing"; fi
# The unit's exposure as systemd rates it (1.7 with ProtectProc, PrivateMounts
# and RemoveIPC; it was 2.1): a change may lower it, never raise it.
if out=$(systemd-analyze security --offline=true --threshold=17 "$tmp/unit/tock-web.service" 2>&1); then
  ok "tock-web.service: systemd-analyze security exposure at most 1.7"
else
  fail "tock-web.service: systemd-analyze security exposure at most 1.7" "$(printf '%s\n' "$out" | tail -1)"
fi
if command -v xmllint >/dev/null; then
  check "the Avahi service file is well-formed XML" xmllint --noout "$deploy/tock.avahi.service"
fi
check "the Avahi service file announces the unit's port" \
  bash -c "grep -q '<port>8080</port>' '$deploy/tock.avahi.service' && grep -q -- '--port 8080' '$deploy/tock-web.service'"
# The settings the appliance relies on, each as one exact line.
missing=
while read -r line; do
  grep -qxF -- "$line" "$deploy/tock.service" || missing+="$line"$'\n'
done <<'EOF'
Type=notify
CPUSchedulingPolicy=fifo
CPUSchedulingPriority=1
NotifyAccess=main
WatchdogSec=10s
Restart=on-failure
RestartSec=2s
User=tock
Group=tock
SupplementaryGroups=gpio i2c spi
StateDirectory=tock
RuntimeDirectory=tock
RuntimeDirectoryMode=0750
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
DevicePolicy=closed
DeviceAllow=char-gpiochip rw
DeviceAllow=char-i2c rw
DeviceAllow=char-spi rw
KillSignal=SIGTERM
TimeoutStopSec=5s
ExecReload=/bin/kill -HUP $MAINPID
WantedBy=multi-user.target
EOF
if [ -z "$missing" ]; then ok "the unit has every setting the appliance relies on"; else fail "the unit has every setting the appliance relies on" "missing: $missing"; fi
if grep -Eq '^(PrivateDevices|ProtectKernelTunables)=' "$deploy/tock.service"; then
  fail "no PrivateDevices= (hides /dev/gpiochip*) or ProtectKernelTunables= (read-only sysfs PWM)"
else
  ok "no PrivateDevices= (hides /dev/gpiochip*) or ProtectKernelTunables= (read-only sysfs PWM)"
fi
check "RestrictAddressFamilies= lets the MQTT link reach the network (AF_INET, AF_INET6), the address watcher read the kernel's (AF_NETLINK), and nothing else new" \
  grep -Eqx 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' "$deploy/tock.service"
check "After= local-fs.target and time-sync.target" \
  grep -Eq '^After=.*local-fs\.target.*time-sync\.target' "$deploy/tock.service"
if systemd-analyze --help 2>/dev/null | grep -q -- '--offline'; then
  exposure=$(systemd-analyze security --offline=true "$tmp/unit/tock.service" 2>/dev/null | sed -n 's/^→ Overall exposure level for tock.service: *//p')
  echo "     (systemd-analyze security: exposure ${exposure:-unknown})"
fi

# ---------------------------------------------------------------- the service contract
# tock run as the unit runs it (mock backend, no hardware): READY=1 once up,
# WATCHDOG=1 at half of WATCHDOG_USEC, the control socket in
# $RUNTIME_DIRECTORY, exit 0 within TimeoutStopSec of SIGTERM with
# STOPPING=1 and the state saved in $STATE_DIRECTORY. The notification
# socket is played by perl (perl-base is on every Debian system).
mkdir -p "$tmp/svc/state" "$tmp/svc/run"
# notify_listener SOCKET LOG SECONDS: systemd's notification socket, each
# assignment a line of LOG, until STOPPING=1 or SECONDS; sets $listener.
notify_listener() {
  perl -MSocket -MIO::Handle -e '
    my ($path, $log, $limit) = @ARGV;
    socket(my $s, AF_UNIX, SOCK_DGRAM, 0) or die "socket: $!";
    bind($s, pack_sockaddr_un($path)) or die "bind: $!";
    open(my $out, ">", $log) or die "$log: $!"; $out->autoflush(1);
    my $end = time + $limit;
    while (time < $end) {
      my $rin = ""; vec($rin, fileno($s), 1) = 1;
      next unless select(my $rout = $rin, undef, undef, 0.2);
      recv($s, my $msg, 4096, 0);
      print $out "$_\n" for split /\n/, $msg;
      last if $msg =~ /^STOPPING=1$/m;
    }' "$1" "$2" "$3" &
  listener=$!
  for _ in $(seq 50); do [ -S "$1" ] && break; sleep 0.1; done
}
notify_listener "$tmp/svc/notify" "$tmp/svc/notify.log" 20
: > "$tmp/svc/stderr"
# systemd names journald's stream in JOURNAL_STREAM (device:inode); here the
# file plays it.
NOTIFY_SOCKET=$tmp/svc/notify WATCHDOG_USEC=1000000 STATE_DIRECTORY=$tmp/svc/state RUNTIME_DIRECTORY=$tmp/svc/run \
  JOURNAL_STREAM=$(stat -c '%d:%i' "$tmp/svc/stderr") \
  "$tock" run --backend mock --config "$deploy/config.yaml" 2>> "$tmp/svc/stderr" &
svc=$!
wait_for() {  # wait_for PATTERN SECONDS: a notification line matching PATTERN
  local _
  for _ in $(seq $(($2 * 20))); do
    grep -Eq "$1" "$tmp/svc/notify.log" 2>/dev/null && return 0
    kill -0 $svc 2>/dev/null || { grep -Eq "$1" "$tmp/svc/notify.log" 2>/dev/null; return; }
    sleep 0.05
  done
  return 1
}
if wait_for '^READY=1$' 10; then ok "tock run sends READY=1 (Type=notify)"; else fail "tock run sends READY=1 (Type=notify)" "$(cat "$tmp/svc/stderr" "$tmp/svc/notify.log" 2>/dev/null)"; fi
if wait_for '^WATCHDOG=1$' 2; then ok "tock run pings WATCHDOG=1 within WATCHDOG_USEC"; else fail "tock run pings WATCHDOG=1 within WATCHDOG_USEC" "$(cat "$tmp/svc/notify.log" 2>/dev/null)"; fi
check "tock run creates control.sock in \$RUNTIME_DIRECTORY" test -S "$tmp/svc/run/control.sock"
kill -TERM $svc 2>/dev/null
for _ in $(seq 100); do kill -0 $svc 2>/dev/null || break; sleep 0.05; done
if kill -0 $svc 2>/dev/null; then
  kill -KILL $svc; wait $svc 2>/dev/null
  fail "tock run exits within TimeoutStopSec (5 s) of SIGTERM"
else
  wait $svc; rc=$?
  if [ $rc = 0 ]; then ok "tock run exits 0 on SIGTERM (KillSignal=SIGTERM, within 5 s)"; else fail "tock run exits 0 on SIGTERM" "exit status $rc; $(cat "$tmp/svc/stderr")"; fi
fi
sleep 0.3
check "tock run sends STOPPING=1" grep -q '^STOPPING=1$' "$tmp/svc/notify.log"
check "tock run saves its state in \$STATE_DIRECTORY" test -s "$tmp/svc/state/state.json"
if [ -s "$tmp/svc/stderr" ] && ! grep -qv '^<[0-7]>' "$tmp/svc/stderr"; then
  ok "every log line starts with a <N> priority for the journal"
else
  fail "every log line starts with a <N> priority for the journal" "$(head -5 "$tmp/svc/stderr")"
fi
kill $listener 2>/dev/null; wait $listener 2>/dev/null

# A stopwatch changes the display 100 times a second; systemd hears a
# STATUS= line only when it changes, at most once a second (about 3 in 2.5 s,
# where each frame would be 250). Logged on a plain file (no JOURNAL_STREAM),
# the lines carry no <N> prefix.
mkdir -p "$tmp/sw"
printf 'mode: stopwatch\nswitch: up\n' > "$tmp/sw/config.yaml"
notify_listener "$tmp/sw/notify" "$tmp/sw/notify.log" 10
NOTIFY_SOCKET=$tmp/sw/notify "$tock" run --backend mock --config "$tmp/sw/config.yaml" \
  --socket "$tmp/sw/control.sock" --state "$tmp/sw/state.json" 2> "$tmp/sw/stderr" &
svc=$!
for _ in $(seq 100); do grep -q '^READY=1$' "$tmp/sw/notify.log" 2>/dev/null && break; sleep 0.05; done
"$tock" start --socket "$tmp/sw/control.sock" >/dev/null
sleep 2.5
statuses=$(grep -c '^STATUS=running' "$tmp/sw/notify.log" || true)
kill -TERM $svc 2>/dev/null; wait $svc 2>/dev/null
kill $listener 2>/dev/null; wait $listener 2>/dev/null
if [ "$statuses" -ge 2 ] && [ "$statuses" -le 4 ]; then
  ok "a running stopwatch sends STATUS= at most once a second ($statuses in 2.5 s)"
else
  fail "a running stopwatch sends STATUS= at most once a second" "$statuses STATUS=running lines in 2.5 s: $(head -5 "$tmp/sw/notify.log")"
fi
if [ -s "$tmp/sw/stderr" ] && ! grep -q '^<[0-7]>' "$tmp/sw/stderr"; then
  ok "log lines outside the journal carry no <N> prefix"
else
  fail "log lines outside the journal carry no <N> prefix" "$(head -5 "$tmp/sw/stderr")"
fi

# ---------------------------------------------------------------- the configuration
check "tock config check deploy/config.yaml" "$tock" config check "$deploy/config.yaml"
# The commented-out parts are valid too: countdown mode with its instant,
# and the other two status LEDs.
sed -e 's/^mode: timer /mode: countdown /' -e 's/^#countdown:/countdown:/' -e 's/^#  until:/  until:/' \
    -e 's/^  # paused:/  paused:/' -e 's/^  # rest:/  rest:/' "$deploy/config.yaml" > "$tmp/countdown.yaml"
if grep -q '^  until:' "$tmp/countdown.yaml" && grep -q '^  rest:' "$tmp/countdown.yaml"; then
  check "the commented-out countdown section and LEDs pass the check" "$tock" config check "$tmp/countdown.yaml"
else
  fail "the commented-out countdown section and LEDs pass the check" "the sed did not uncomment them"
fi
# ... and the check does check: a misspelt key is refused.
sed 's/^  debounce:/  debounce_ms:/' "$deploy/config.yaml" > "$tmp/typo.yaml"
if "$tock" config check "$tmp/typo.yaml" >/dev/null 2>&1; then fail "a misspelt key is refused"; else ok "a misspelt key is refused"; fi
# The default wiring.
missing=
while read -r section key value; do
  awk -v s="$section:" -v k="  $key:" -v v="$value" '
    { line = $0; sub(/[ \t]+#.*$/, "", line) }
    line == s { in_s = 1; next }
    /^[a-z]/ { in_s = 0 }
    in_s && index(line, k " ") == 1 { split(substr(line, length(k) + 1), w, " "); if (w[1] == v) found = 1 }
    END { exit !found }' "$deploy/config.yaml" || missing+="$section.$key: $value"$'\n'
done <<'EOF'
pins start GPIO17
pins stop GPIO27
pins reset GPIO22
pins switch GPIO23
pins bias pull-up
pins active_low true
buzzer kind active
buzzer pin GPIO18
buzzer pwm_chip 0
buzzer pwm_channel 0
leds running GPIO24
leds ringing GPIO25
display kind tm1637
display digits 4
display brightness 7
display clk GPIO5
display dio GPIO6
display i2c_bus 1
display spi_bus 0
display spi_device 0
EOF
if [ -z "$missing" ]; then ok "deploy/config.yaml has the default wiring"; else fail "deploy/config.yaml has the default wiring" "$missing"; fi
# Every key tock accepts appears in the example, as read from the checker's
# own lists (r.mapping(..., allowed: [...]) in Sources/TockConfig).
keys=$(cat "$repo"/Sources/TockConfig/*.swift | tr -d '\n' | grep -o 'r\.mapping([a-z]*, "[a-z_]*", allowed: \[[^]]*\]' \
  | sed -E 's/r\.mapping\([a-z]*, "([a-z_]*)", allowed: \[(.*)\]/\1 \2/' | tr -d '",' \
  | awk '$1 != "" && $1 != "leds" { for (i = 2; i <= NF; i++) print $1 "." $i }')
display_hw=$(grep -ho 'displayHardwareKeys = \[[^]]*\]' "$repo"/Sources/TockConfig/*.swift | sed 's/.*\[//; s/\]//' | tr -d '",')
keys+=$'\n'$(for k in $display_hw; do echo "display.$k"; done)
if [ "$(echo "$keys" | grep -c .)" -lt 20 ]; then
  fail "every configuration key is in deploy/config.yaml" "could not read the key lists from Sources/TockConfig (found: $keys)"
else
  missing=
  for k in $keys; do
    grep -Eq "^#? *${k#*.}:" <(awk -v s="${k%%.*}" '/^#?[a-z]/ { cur = $0; sub(/^#/, "", cur); sub(/:.*/, "", cur) } cur == s' "$deploy/config.yaml") \
      || missing+="$k "
  done
  top=$(grep -ho '\(topKeys\|hardwareKeys\) = \[[^]]*\]' "$repo"/Sources/TockConfig/*.swift | sed 's/.*\[//; s/\]//' | tr -d '",')
  for k in $top mode switch timer countdown interval alarm input display leds pins buzzer; do
    grep -Eq "^#?$k:" "$deploy/config.yaml" || missing+="$k "
  done
  if [ -z "$missing" ]; then ok "every configuration key is in deploy/config.yaml ($(echo "$keys" | grep -c .) keys)"; else fail "every configuration key is in deploy/config.yaml" "missing: $missing"; fi
fi

# ---------------------------------------------------------------- the udev rule
rules=$deploy/99-tock-gpio.rules
bad=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$rules" | grep -v '^[[:space:]]*\(#\|$\)' \
  | while IFS= read -r line; do
      rest=$line
      while [ -n "$rest" ]; do
        # KEY or KEY{attr}, an operator, a double-quoted value, then a comma or the end.
        if [[ $rest =~ ^[[:space:]]*([A-Z_]+(\{[^}]*\})?)(==|!=|\+=|-=|:=|=)\"([^\"]*)\"[[:space:]]*(,|$)(.*)$ ]]; then
          rest=${BASH_REMATCH[6]}
        else
          echo "$line"; break
        fi
      done
    done)
if [ -z "$bad" ]; then ok "99-tock-gpio.rules: every rule is KEY op \"value\", comma-separated"; else fail "99-tock-gpio.rules: every rule is KEY op \"value\", comma-separated" "$bad"; fi
missing=
for want in 'SUBSYSTEM=="gpio", KERNEL=="gpiochip\*", GROUP="gpio", MODE="0660"' \
            'SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660"' \
            'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"' \
            'SUBSYSTEM=="pwm", KERNEL=="pwmchip\*", ACTION=="add"' \
            'SUBSYSTEM=="pwm", KERNEL=="pwmchip\*", ACTION=="change", ENV\{EXPORT\}=="pwm\*"'; do
  grep -Eq "^$want" "$rules" || missing+="$want"$'\n'
done
if [ -z "$missing" ]; then ok "99-tock-gpio.rules: gpiochip to gpio, i2c-dev to i2c, spidev to spi, PWM to gpio"; else fail "99-tock-gpio.rules: gpiochip to gpio, i2c-dev to i2c, spidev to spi, PWM to gpio" "$missing"; fi

# ---------------------------------------------------------------- install.sh --root
inst=$tmp/root
snapshot() {  # every path under $1 with type, mode, size, mtime and content hash
  (cd "$1" && find . -printf '%p %y %m %s %T@\n' | LC_ALL=C sort
   find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r md5sum)
}
expected_files=(
  "usr/bin/tock 755" "lib/systemd/system/tock.service 644" "lib/udev/rules.d/99-tock-gpio.rules 644"
  "etc/tock/config.yaml 644" "usr/share/doc/tock/README.md 644" "usr/share/doc/tock/config.yaml 644")
doc_pages=()   # docs/*.md, installed next to the README that links to them
for page in "$repo"/docs/*.md; do doc_pages+=("usr/share/doc/tock/docs/${page##*/}"); done
for page in "${doc_pages[@]}"; do expected_files+=("$page 644"); done
if out=$("$deploy/install.sh" --root "$inst" --binary "$tock" 2>&1); then
  ok "install.sh --root DIR runs"
  missing=
  for entry in "${expected_files[@]}"; do
    f=${entry% *} mode=${entry#* }
    if [ ! -f "$inst/$f" ]; then missing+="$f (absent) "
    elif [ "$(stat -c %a "$inst/$f")" != "$mode" ]; then missing+="$f (mode $(stat -c %a "$inst/$f"), not $mode) "; fi
  done
  if [ -z "$missing" ]; then ok "install.sh --root installs the binary (0755), unit, rule, config and docs (0644)"; else fail "install.sh --root installs the binary (0755), unit, rule, config and docs (0644)" "$missing"; fi
  check "install.sh --root: installed files equal their sources" \
    bash -c "cmp '$tock' '$inst/usr/bin/tock' && cmp '$deploy/tock.service' '$inst/lib/systemd/system/tock.service' \
             && cmp '$deploy/99-tock-gpio.rules' '$inst/lib/udev/rules.d/99-tock-gpio.rules' && cmp '$deploy/config.yaml' '$inst/etc/tock/config.yaml'"
  other=$(cd "$inst" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | grep -vxF -f <(printf '%s\n' "${expected_files[@]%% *}"))
  if [ -z "$other" ]; then ok "install.sh --root installs nothing else"; else fail "install.sh --root installs nothing else" "$other"; fi
  before=$(snapshot "$inst")
  out2=$("$deploy/install.sh" --root "$inst" --binary "$tock" 2>&1)
  if [ "$before" = "$(snapshot "$inst")" ] && ! grep -q 'installed /' <<<"$out2"; then
    ok "install.sh --root a second time changes nothing"
  else
    fail "install.sh --root a second time changes nothing" "$out2"$'\n'"$(diff <(echo "$before") <(snapshot "$inst"))"
  fi
  # A person's configuration is never overwritten.
  printf 'mode: stopwatch\n' > "$inst/etc/tock/config.yaml"
  "$deploy/install.sh" --root "$inst" --binary "$tock" >/dev/null 2>&1
  check "install.sh keeps an edited /etc/tock/config.yaml" grep -qx 'mode: stopwatch' "$inst/etc/tock/config.yaml"
  # ... and refuses to install over a configuration this tock would refuse.
  printf 'mode: stopwatch\nbogus: 1\n' > "$inst/etc/tock/config.yaml"
  echo '# edited' >> "$inst/lib/systemd/system/tock.service"   # an install would put it back
  before=$(snapshot "$inst")
  if out=$("$deploy/install.sh" --root "$inst" --binary "$tock" 2>&1); then
    fail "install.sh refuses (and installs nothing) when the existing config is bad" "$out"
  elif [ "$before" = "$(snapshot "$inst")" ]; then
    ok "install.sh refuses (and installs nothing) when the existing config is bad"
  else
    fail "install.sh refuses (and installs nothing) when the existing config is bad" "files changed"
  fi
  printf 'mode: stopwatch\n' > "$inst/etc/tock/config.yaml"
  mkdir -p "$inst/var/lib/tock" && echo '{}' > "$inst/var/lib/tock/state.json"
  if out=$("$deploy/install.sh" --root "$inst" --uninstall 2>&1); then
    left=$(cd "$inst" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
    if [ "$left" = "etc/tock/config.yaml var/lib/tock/state.json " ]; then
      ok "install.sh --uninstall --root removes binary, unit, rule and docs, keeps /etc/tock and /var/lib/tock"
    else
      fail "install.sh --uninstall --root removes binary, unit, rule and docs, keeps /etc/tock and /var/lib/tock" "left: $left"
    fi
  else
    fail "install.sh --uninstall --root runs" "$out"
  fi
  if out=$("$deploy/install.sh" --root "$inst" --uninstall --purge 2>&1) && [ -z "$(find "$inst" -type f)" ]; then
    ok "install.sh --uninstall --purge --root removes /etc/tock and /var/lib/tock too"
  else
    fail "install.sh --uninstall --purge --root removes /etc/tock and /var/lib/tock too" "$out $(find "$inst" -type f)"
  fi
else
  fail "install.sh --root DIR runs" "$out"
fi
# DESTDIR= is the same as --root, and --prefix moves the binary and ExecStart.
if DESTDIR=$tmp/destdir "$deploy/install.sh" --prefix /usr/local --binary "$tock" >/dev/null 2>&1 \
   && [ -x "$tmp/destdir/usr/local/bin/tock" ] && [ ! -e "$tmp/destdir/usr/bin/tock" ] \
   && grep -qx 'ExecStart=/usr/local/bin/tock run --config /etc/tock/config.yaml' "$tmp/destdir/lib/systemd/system/tock.service"; then
  ok "DESTDIR=DIR install.sh --prefix /usr/local: binary and ExecStart under /usr/local"
else
  fail "DESTDIR=DIR install.sh --prefix /usr/local: binary and ExecStart under /usr/local"
fi

# The release link packs its relative relocations (Makefile, RELEASE_LINK):
# without DT_RELR the dynamic loader's start-up work doubles.
if readelf -d "$tock" | grep -q '(RELR)'; then ok "the release binary packs its relative relocations (DT_RELR)"
else fail "the release binary packs its relative relocations (DT_RELR)" "$(readelf -d "$tock" | grep -i rel)"; fi

# ---------------------------------------------------------------- the .deb
check "the package is named tock_${version}_${arch}.deb" test "$(basename "$deb")" = "tock_${version}_${arch}.deb"
field() { dpkg-deb -f "$deb" "$1"; }
check "Package: tock" test "$(field Package)" = tock
check "Version: $version" test "$(field Version)" = "$version"
check "Architecture: $arch (dpkg --print-architecture)" test "$(field Architecture)" = "$arch"
depends=$(field Depends)
echo "     (Depends: $depends)"
if grep -Eq '(^|, )libgpiod[0-9]+( |,|$)' <<<"$depends"; then ok "Depends has the libgpiod runtime"; else fail "Depends has the libgpiod runtime" "$depends"; fi
if grep -Eq '(^|, )adduser( |,|$)' <<<"$depends"; then ok "Depends has adduser (used by postinst)"; else fail "Depends has adduser (used by postinst)" "$depends"; fi
if grep -q 'swift' <<<"$depends"; then fail "Depends has no Swift runtime" "$depends"; else ok "Depends has no Swift runtime"; fi
if grep -Eq "(^|, )libmosquitto1(,|$)" <<<"$(field Recommends)" && ! readelf -d "$tock" | grep -q 'NEEDED.*libmosquitto'; then
  ok "libmosquitto is recommended and opened at run time, not linked (no libssl/libcrypto without mqtt:)"
else
  fail "libmosquitto is recommended and opened at run time, not linked" "Recommends: $(field Recommends); $(readelf -d "$tock" | grep NEEDED)"
fi
# deploy/README.md names every package the .deb depends on (its text is what
# an owner reads before installing).
undocumented=
for p in $(tr ',' '\n' <<<"$depends" | sed 's/(.*//; s/|.*//; s/[[:space:]]//g'); do
  grep -q "\`$p\`\|$p" "$deploy/README.md" || undocumented="$undocumented $p"
done
if [ -z "$undocumented" ]; then ok "deploy/README.md names every dependency of the package"; else fail "deploy/README.md names every dependency of the package" "missing:$undocumented"; fi
mkdir -p "$tmp/ctl" "$tmp/data"
dpkg-deb -e "$deb" "$tmp/ctl"
dpkg-deb -x "$deb" "$tmp/data"
check "conffiles lists /etc/tock/config.yaml" grep -qx /etc/tock/config.yaml "$tmp/ctl/conffiles"
check "conffiles lists the Avahi service file" grep -qx /etc/avahi/services/tock.service "$tmp/ctl/conffiles"
listing=$(dpkg-deb -c "$deb")
# The daily update check's unit and timer (deploy/update/), verified the
# same way: the check as the tock user, tock update-checked after it.
sed -e "s|^ExecStart=/usr/lib/tock/tock-update-check|ExecStart=$deploy/update/tock-update-check|" \
    -e "s|^ExecStartPost=-/usr/bin/tock |ExecStartPost=-$tock |" "$deploy/update/tock-update-check.service" > "$tmp/unit/tock-update-check.service"
cp "$deploy/update/tock-update-check.timer" "$tmp/unit/"
if out=$(cd "$tmp/unit" && systemd-analyze verify "$tmp/unit/tock-update-check.service" "$tmp/unit/tock-update-check.timer" 2>&1) && [ -z "$out" ]; then
  ok "systemd-analyze verify tock-update-check.service and .timer (no errors, no warnings)"
else
  fail "systemd-analyze verify tock-update-check.service and .timer (no errors, no warnings)" "$out"
fi
check "tock-update-check.service runs as tock, not root; the timer has no Persistent= (the image's root is read-only)" \
  bash -c "grep -qx 'User=tock' '$deploy/update/tock-update-check.service' && ! grep -q '^Persistent=' '$deploy/update/tock-update-check.timer'"
check "tock-update and tock-update-check parse (sh -n)" sh -n "$deploy/update/tock-update" "$deploy/update/tock-update-check"
missing=
while read -r mode path; do
  grep -Eq "^$mode root/root +[0-9]+ [0-9-]+ [0-9:]+ \./$path\$" <<<"$listing" || missing+="$mode ./$path"$'\n'
done <<EOF
-rwxr-xr-x usr/bin/tock
-rw-r--r-- lib/systemd/system/tock.service
lrwxrwxrwx usr/bin/tock-web -> tock
-rw-r--r-- lib/systemd/system/tock-web.service
-rw-r--r-- etc/avahi/services/tock.service
-rw-r--r-- etc/tock/config.yaml
-rw-r--r-- lib/udev/rules.d/99-tock-gpio.rules
-rwxr-xr-x usr/lib/tock/tock-update-check
-rwxr-xr-x usr/sbin/tock-update
-rw-r--r-- lib/systemd/system/tock-update-check.service
-rw-r--r-- lib/systemd/system/tock-update-check.timer
-rw-r--r-- usr/share/doc/tock/README.md
$(printf -- '-rw-r--r-- %s\n' "${doc_pages[@]}")
EOF
if [ -z "$missing" ]; then ok "the package holds the binary (0755) and the unit, config, rule, README and docs (0644), all root:root"; else fail "the package holds the binary (0755) and the unit, config, rule, README and docs (0644), all root:root" "$missing"$'\n'"$listing"; fi
check "the packaged unit, config and rule are the ones in deploy/" \
  bash -c "cmp '$deploy/tock.service' '$tmp/data/lib/systemd/system/tock.service' && cmp '$deploy/config.yaml' '$tmp/data/etc/tock/config.yaml' \
           && cmp '$deploy/99-tock-gpio.rules' '$tmp/data/lib/udev/rules.d/99-tock-gpio.rules'"
if readelf -S "$tmp/data/usr/bin/tock" 2>/dev/null | grep -q '\.symtab'; then fail "the packaged binary is stripped"; else ok "the packaged binary is stripped"; fi
if ldd "$tmp/data/usr/bin/tock" 2>&1 | grep -Eq 'swift|not found'; then
  fail "the packaged binary needs no Swift toolchain libraries" "$(ldd "$tmp/data/usr/bin/tock" 2>&1)"
else
  ok "the packaged binary needs no Swift toolchain libraries"
fi
check "the packaged tock-web is a link to tock (one program, run by that name)" \
  bash -c "[ \"\$(readlink '$tmp/data/usr/bin/tock-web')\" = tock ]"
check "the packaged tock-web runs as the page's server (tock-web --help)" \
  bash -c "'$tmp/data/usr/bin/tock-web' --help | grep -q 'The Tock page on the LAN'"
check "the packaged binary runs (config check of the packaged config)" \
  "$tmp/data/usr/bin/tock" config check "$tmp/data/etc/tock/config.yaml"
for s in preinst postinst prerm postrm; do
  if [ -f "$tmp/ctl/$s" ] && [ "$(stat -c %a "$tmp/ctl/$s")" = 755 ] && head -1 "$tmp/ctl/$s" | grep -qx '#!/bin/sh' \
     && sh -n "$tmp/ctl/$s" && grep -qx 'set -e' "$tmp/ctl/$s"; then
    ok "maintainer script $s: #!/bin/sh, 0755, set -e, sh -n"
  else
    fail "maintainer script $s: #!/bin/sh, 0755, set -e, sh -n"
  fi
done
if command -v checkbashisms >/dev/null; then
  check "maintainer scripts: no bashisms" checkbashisms "$tmp/ctl/preinst" "$tmp/ctl/postinst" "$tmp/ctl/prerm" "$tmp/ctl/postrm"
fi
if (cd "$tmp/data" && md5sum --quiet -c "$tmp/ctl/md5sums") >/dev/null 2>&1; then ok "md5sums match the contents"; else fail "md5sums match the contents"; fi

# ---------------------------------------------------------------- on a system (throwaway overlay)
# The maintainer scripts and install.sh's user, group and enable steps run
# for real in a chroot on a throwaway overlay of / (a private mount
# namespace; nothing reaches this machine). Needs root and overlayfs; skipped
# otherwise. systemd and udev do not run there, so starting the service and
# reloading udev are not exercised.
# shellcheck disable=SC2329  # run through unshare, by name
live_test() {
  local R=$tmp/ovl/root
  mkdir -p "$tmp/ovl"
  mount -t tmpfs tmpfs "$tmp/ovl" || return 2
  mkdir -p "$tmp/ovl/up" "$tmp/ovl/work" "$R"
  mount -t overlay overlay -o "lowerdir=/,upperdir=$tmp/ovl/up,workdir=$tmp/ovl/work" "$R" || return 2
  mount -t proc proc "$R/proc" && mount --rbind /dev "$R/dev" && mount -t tmpfs tmpfs "$R/run" || return 2
  mkdir -p "$R/t" && mount --bind "$tmp/live" "$R/t" || return 2
  chroot "$R" /bin/sh /t/inner.sh
}
mkdir -p "$tmp/live/deploy"
cp "$deb" "$tmp/live/tock.deb"
cp "$tock" "$tmp/live/tock"
cp -r "$deploy"/* "$tmp/live/deploy/"
cp -r "$repo/README.md" "$repo/docs" "$tmp/live/"   # install.sh takes them from the directory above deploy/
cat > "$tmp/live/inner.sh" <<'EOF'
# Each step's output goes to $log; a failed check prints its tail and the
# tock account as it is, as "| " lines.
log=/t/step.log
t() {
  if eval "$2"; then echo "ok   $1"; else
    echo "FAIL $1"
    { tail -n 12 "$log"; echo "passwd: $(getent passwd tock)"; echo "shadow: $(getent shadow tock)"
      echo "group:  $(getent group tock)"; echo "id:     $(id tock 2>&1)"; } | sed 's/^/| /'
  fi
}
step() { log=/t/$1.log; shift; "$@" > "$log" 2>&1; }
member() { id -nG tock 2>/dev/null | tr ' ' '\n' | grep -qx "$1"; }
field() { getent "$1" tock | cut -d: -f"$2"; }   # field passwd|shadow|group N
wants=/etc/systemd/system/multi-user.target.wants/tock.service
# A tock of this machine's own is no part of the test (this is the overlay).
{ dpkg -P tock; userdel tock; groupdel tock; } >/dev/null 2>&1

# A person's account named tock (uid >= 1000, a home with a file in it):
# the package refuses it, before unpacking and again when configuring, and
# a purge leaves it as it was.
useradd --create-home --shell /bin/bash --comment "a person" tock
echo "a note" > ~tock/note.txt && chown tock:tock ~tock/note.txt
person() { getent passwd tock; getent shadow tock; getent group tock; id tock
           find ~tock -printf '%p %u %g %m %s %T@\n' | LC_ALL=C sort; }
person_before=$(person)
step person-install dpkg -i /t/tock.deb; rc=$?
t "a person's account named tock (uid $(id -u tock)): dpkg -i refuses, naming the account and what to do" \
  '[ $rc != 0 ] && grep -q "refusing to install: the user account tock (uid $(id -u tock), home /home/tock) is not a system account" $log \
   && grep -q "usermod --login tock-old" $log && grep -q "deluser tock" $log'
t "a person's account named tock: dpkg -i unpacks nothing, and the account, its groups and its home are as they were" \
  '[ ! -e /usr/bin/tock ] && [ "$(person)" = "$person_before" ]'
userdel --remove tock
step person-unpack dpkg --unpack /t/tock.deb
useradd --create-home --shell /bin/bash --comment "a person" tock
echo "a note" > ~tock/note.txt && chown tock:tock ~tock/note.txt
person_before=$(person)
step person-configure dpkg --configure tock; rc=$?
t "a person's account named tock made after unpacking: postinst refuses to configure, with the message" \
  '[ $rc != 0 ] && grep -q "refusing to configure: the user account tock (uid $(id -u tock)" $log'
t "a person's account named tock: postinst leaves the account, its groups (not gpio, i2c, spi) and its home as they were" \
  '[ "$(person)" = "$person_before" ] && ! member gpio'
step person-purge dpkg -P tock; rc=$?
t "a person's account named tock: dpkg -P removes the package and leaves the account, unlocked, and its home as they were" \
  '[ $rc = 0 ] && [ ! -e /usr/bin/tock ] && [ "$(person)" = "$person_before" ] && [ -z "$(field shadow 8)" ]'
userdel --remove tock; groupdel tock 2>/dev/null
# A group named tock that is not a system group (gid >= 1000), no such user.
groupadd tock
group_before=$(getent group tock)
step group-install dpkg -i /t/tock.deb; rc=$?
t "a group named tock (gid $(getent group tock | cut -d: -f3)), not a system one: dpkg -i refuses, naming it; no user made, the group as it was" \
  '[ $rc != 0 ] && grep -q "refusing to install: the group tock (gid $(getent group tock | cut -d: -f3)) is not a system group" $log \
   && ! getent passwd tock >/dev/null && [ "$(getent group tock)" = "$group_before" ] && [ ! -e /usr/bin/tock ]'
{ dpkg -P tock; groupdel tock; } >/dev/null 2>&1

# The package's own system account.
step install dpkg -i /t/tock.deb; rc=$?
t "dpkg -i: installs" '[ $rc = 0 ] && [ -x /usr/bin/tock ] && [ -f /etc/tock/config.yaml ]'
t "dpkg -i: postinst creates the tock system user and group (ids 100-999, home /var/lib/tock, nologin) in gpio, i2c and spi" \
  'member gpio && member i2c && member spi && [ "$(id -u tock)" -ge 100 ] && [ "$(id -u tock)" -le 999 ] \
   && [ "$(field group 3)" -ge 100 ] && [ "$(field group 3)" -le 999 ] && [ "$(field passwd 6)" = /var/lib/tock ] \
   && [ "$(field passwd 7)" = /usr/sbin/nologin ]'
t "dpkg -i: postinst enables tock.service" '[ -L $wants ] || ! command -v deb-systemd-helper >/dev/null'
uid=$(id -u tock) gid=$(field group 3)
# What an owner adds: the MQTT password file (group tock, as docs/mqtt.md
# says), the account in another group.
echo secret > /etc/tock/mqtt-password && chgrp tock /etc/tock/mqtt-password && chmod 640 /etc/tock/mqtt-password
usermod -a -G audio tock
echo "mode: stopwatch" > /etc/tock/config.yaml
step install-again dpkg -i /t/tock.deb; rc=$?
t "dpkg -i again: succeeds and keeps the edited conffile" '[ $rc = 0 ] && grep -qx "mode: stopwatch" /etc/tock/config.yaml'
step remove dpkg -r tock; rc=$?
t "dpkg -r: removes the binary, keeps the conffile and the user" '[ $rc = 0 ] && [ ! -e /usr/bin/tock ] && [ -f /etc/tock/config.yaml ] && id tock >/dev/null 2>&1'
mkdir -p /var/lib/tock && echo "{}" > /var/lib/tock/state.json
step purge dpkg -P tock; rc=$?
t "dpkg -P: removes config.yaml, /var/lib/tock and the enable link" \
  '[ $rc = 0 ] && [ ! -e /etc/tock/config.yaml ] && [ ! -e /var/lib/tock ] && [ ! -L $wants ]'
t "dpkg -P: keeps the tock user and group, with their ids" '[ "$(id -u tock 2>/dev/null)" = "$uid" ] && [ "$(field group 3)" = "$gid" ]'
t "dpkg -P: locks the tock account (password locked, expired: su tock is refused)" \
  'field shadow 2 | grep -q "^!" && [ "$(field shadow 8)" = 1 ] && ! su -s /bin/sh -c true tock >/dev/null 2>&1'
t "dpkg -P: keeps a file the owner put in /etc/tock, still group tock by name" \
  '[ "$(cat /etc/tock/mqtt-password 2>/dev/null)" = secret ] && [ "$(stat -c %G /etc/tock/mqtt-password)" = tock ]'
adduser --quiet --system --group tock-later
t "after dpkg -P: a system account made later gets neither the uid nor the gid of tock" \
  '[ "$(id -u tock-later)" != "$uid" ] && [ "$(getent group tock-later | cut -d: -f3)" != "$gid" ] && [ "$(stat -c %G /etc/tock/mqtt-password)" = tock ]'
step reinstall dpkg -i /t/tock.deb; rc=$?
t "dpkg -i after a purge: installs and reuses the tock account (same ids, unlocked, the owner's audio group kept, in gpio, i2c, spi)" \
  '[ $rc = 0 ] && [ -x /usr/bin/tock ] && [ "$(id -u tock)" = "$uid" ] && [ "$(field group 3)" = "$gid" ] && [ -z "$(field shadow 8)" ] \
   && member audio && member gpio && member i2c && member spi'
step purge-again dpkg -P tock
deluser --quiet --system tock-later >/dev/null 2>&1
# install.sh, from no account at all.
userdel tock; groupdel tock 2>/dev/null; rm -rf /etc/tock
step install-sh bash /t/deploy/install.sh --binary /t/tock; rc=$?
t "install.sh: creates the tock user in gpio, i2c, spi, installs and enables" '[ $rc = 0 ] && member gpio && member spi && [ "$(id -u tock)" -le 999 ] && [ -x /usr/bin/tock ] && { [ -L $wants ] || ! command -v systemctl >/dev/null; }'
step install-sh-again bash /t/deploy/install.sh --binary /t/tock; rc=$?
t "install.sh a second time: changes nothing" '[ $rc = 0 ] && ! grep -Eq "installed|created|added|unlocked" $log'
uid=$(id -u tock)
echo secret > /etc/tock/mqtt-password && chgrp tock /etc/tock/mqtt-password
usermod -a -G audio tock
step uninstall-sh bash /t/deploy/install.sh --uninstall --purge; rc=$?
t "install.sh --uninstall --purge: removes the files, the configuration, the state and the enable link" \
  '[ $rc = 0 ] && [ ! -e /usr/bin/tock ] && [ ! -e /etc/tock/config.yaml ] && [ ! -e /var/lib/tock ] && [ ! -L $wants ]'
t "install.sh --uninstall --purge: keeps the tock account, locked, and the owner's file in /etc/tock (group tock)" \
  '[ "$(id -u tock)" = "$uid" ] && [ "$(field shadow 8)" = 1 ] && [ "$(stat -c %G /etc/tock/mqtt-password)" = tock ]'
step install-sh-reinstall bash /t/deploy/install.sh --binary /t/tock; rc=$?
t "install.sh after a purge: reuses and unlocks the tock account (same uid, the owner's audio group kept)" \
  '[ $rc = 0 ] && [ "$(id -u tock)" = "$uid" ] && [ -z "$(field shadow 8)" ] && member audio && member gpio'
step uninstall-sh-again bash /t/deploy/install.sh --uninstall --purge
userdel tock; groupdel tock 2>/dev/null
useradd --create-home --shell /bin/bash --comment "a person" tock
person_before=$(person)
step install-sh-person bash /t/deploy/install.sh --binary /t/tock; rc=$?
t "install.sh with a person's account named tock: refuses with the message, installs nothing, the account as it was" \
  '[ $rc != 0 ] && grep -q "refusing to install: the user account tock (uid $(id -u tock)" $log && [ ! -e /usr/bin/tock ] && [ "$(person)" = "$person_before" ]'
step uninstall-sh-person bash /t/deploy/install.sh --uninstall --purge; rc=$?
t "install.sh --uninstall --purge with a person's account named tock: leaves it as it was" '[ $rc = 0 ] && [ "$(person)" = "$person_before" ]'
EOF
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
  out=$(unshare -m --propagation private bash -c "$(declare -f live_test); tmp='$tmp'; live_test" 2>&1); rc=$?
  if [ $rc = 2 ] || ! grep -q '^ok\|^FAIL' <<<"$out"; then
    echo "skip the package and install.sh on a system (no overlay here: $(tail -1 <<<"$out"))"
  else
    failing= detail=
    flush() { [ -z "$failing" ] || fail "$failing" "$detail"; failing= detail=; }
    while IFS= read -r line; do
      case $line in
        "ok   "*) flush; ok "${line#ok   }" ;;
        "FAIL "*) flush; failing=${line#FAIL } ;;
        "| "*) detail+=${line#| }$'\n' ;;
      esac
    done <<<"$out"
    flush
  fi
else
  echo "skip the package and install.sh on a system (needs root and unshare)"
fi

finish
