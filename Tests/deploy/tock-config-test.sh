#!/usr/bin/env bash
# deploy/image/rootfs/tock-config (which configuration tock starts on in the
# image, and whether the setup must restart it) in a scratch directory:
# `systemctl` and `uname` are stand-ins on PATH that record what they are
# asked; nothing of this machine's is touched.
set -euo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/deploy/image/rootfs/tock-config
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
cat > "$work/bin/systemctl" <<'STUB'
#!/bin/sh
case "$1" in
  show) echo "${STATE:-active}" ;;
  *) echo "$*" >> "$CALLS" ;;
esac
STUB
cat > "$work/bin/uname" <<'STUB'
#!/bin/sh
echo "${HOST:-tock}"
STUB
chmod +x "$work/bin/systemctl" "$work/bin/uname"
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
fresh() {
  rm -rf "$work/box"; mkdir -p "$work/box/data" "$work/box/etc"
  printf 'mode: timer\n' > "$work/box/etc/config.yaml"
  : > "$work/calls"
}
tc() {  # tock-config ARG, under tock.service's umask
  (umask 027; env TOCK_IMAGE_RUN="$work/box/run" TOCK_IMAGE_LAST_GOOD="$work/box/data/config.yaml" \
    TOCK_IMAGE_DEFAULTS="$work/box/etc/config.yaml" CALLS="$work/calls" PATH="$work/bin:$PATH" sh "$script" "$@")
}
link() { readlink "$work/box/run/config.yaml"; }
restarted() { grep -Eqx '(try-)?restart tock.service' "$work/calls"; }

fresh; tc start >/dev/null
[ "$(link)" = "$work/box/etc/config.yaml" ] && ok "first boot, no setup yet: the package's defaults" || bad "defaults: $(link)"
[ "$(stat -c %a "$work/box/run")" = 755 ] && ok "the directory stays readable by the tock user under UMask=0027" \
  || bad "directory mode $(stat -c %a "$work/box/run")"

fresh; printf 'mode: stopwatch\n' > "$work/box/data/config.yaml"; tc start >/dev/null
[ "$(link)" = "$work/box/data/config.yaml" ] && ok "no setup yet: the last good configuration" || bad "last good: $(link)"

fresh; : > "$work/box/data/config.yaml"; tc start >/dev/null
[ "$(link)" = "$work/box/etc/config.yaml" ] && ok "an empty last good file (a cut mid-write): the defaults" || bad "empty last good: $(link)"

fresh; mkdir -p "$work/box/run"; printf 'mode: stopwatch\n' > "$work/box/data/config.yaml"
ln -s "$work/box/data/config.yaml" "$work/box/run/config.yaml"; chmod 0700 "$work/box/run"; tc start >/dev/null
[ "$(link)" = "$work/box/data/config.yaml" ] && [ "$(stat -c %a "$work/box/run")" = 755 ] \
  && ok "the setup chose first: its link kept, the directory made readable" || bad "setup's link: $(link)"

fresh; mkdir -p "$work/box/run"; ln -s "$work/box/nowhere.yaml" "$work/box/run/config.yaml"; tc start >/dev/null
[ "$(link)" = "$work/box/etc/config.yaml" ] && ok "a dangling link: replaced by the defaults" || bad "dangling: $(link)"

# changed: tock started on the defaults (first boot) ...
fresh; tc start >/dev/null; printf 'mode: timer\n' > "$work/box/data/config.yaml"
ln -sfn "$work/box/data/config.yaml" "$work/box/run/config.yaml"; tc changed >/dev/null
restarted && bad "same bytes in another file: restarted" || ok "the setup keeps the same bytes under another name: no restart"
printf 'mode: stopwatch\n' > "$work/box/data/config.yaml"; tc changed >/dev/null
restarted && ok "other bytes: tock restarted" || bad "other bytes: not restarted"
: > "$work/calls"; STATE=inactive tc changed >/dev/null
restarted && bad "not started: restarted" || ok "tock not started yet: left to start on the setup's choice"
: > "$work/calls"; STATE=activating tc changed >/dev/null
restarted && ok "tock starting on the old file: restarted" || bad "activating: not restarted"
: > "$work/calls"; STATE=failed tc changed >/dev/null
grep -qx 'restart tock.service' "$work/calls" && ok "tock failed on the old file (exit 2 is not retried): started again on the setup's" \
  || bad "failed: not restarted"
: > "$work/calls"; STATE=inactive tc changed >/dev/null; STATE=deactivating tc changed >/dev/null
restarted && bad "stopped: restarted" || ok "tock stopped or stopping: left alone"

fresh; rm -f "$work/box/run/started"; mkdir -p "$work/box/run"; ln -s "$work/box/etc/config.yaml" "$work/box/run/config.yaml"
tc changed >/dev/null
restarted && ok "no record of what tock started on: restarted (once too often rather than on the wrong file)" || bad "no record: not restarted"

# the host name counts only when the configuration has an MQTT link
fresh; tc start >/dev/null; HOST=tock-kitchen tc changed >/dev/null
restarted && bad "host name, no MQTT: restarted" || ok "a new host name without MQTT: no restart"
fresh; printf 'mode: timer\nmqtt:\n  host: broker\n' > "$work/box/etc/config.yaml"; tc start >/dev/null; HOST=tock-kitchen tc changed >/dev/null
restarted && ok "a new host name with MQTT (the client id): restarted" || bad "host name with MQTT: not restarted"

# a large file (the setup bounds it at 1 MiB; this is 8 MiB)
fresh; head -c 8388608 /dev/zero | tr '\0' 'a' > "$work/box/data/config.yaml"; tc start >/dev/null
printf 'x' >> "$work/box/data/config.yaml"; tc changed >/dev/null
restarted && ok "8 MiB file, one byte appended: seen" || bad "large file change not seen"

# splash: tock splash on the file tock will start on, nothing written
cat > "$work/bin/tock" <<'STUB'
#!/bin/sh
echo "$*" >> "$CALLS"
STUB
chmod +x "$work/bin/tock"
ts() { TOCK_BINARY="$work/bin/tock" tc splash; }
fresh; ts
grep -qx "splash --config $work/box/etc/config.yaml" "$work/calls" && ok "splash, first boot: the package's defaults" || bad "splash defaults: $(cat "$work/calls")"
[ ! -e "$work/box/run" ] && ok "splash writes nothing (no /run/tock-image made)" || bad "splash made $work/box/run"
fresh; printf 'mode: stopwatch\n' > "$work/box/data/config.yaml"; ts
grep -qx "splash --config $work/box/data/config.yaml" "$work/calls" && ok "splash: the last configuration that passed" || bad "splash last good: $(cat "$work/calls")"
fresh; printf 'mode: stopwatch\n' > "$work/box/data/config.yaml"; tc start >/dev/null; : > "$work/calls"; ts
grep -qx "splash --config $work/box/run/config.yaml" "$work/calls" && ok "splash after the link is made: the link" || bad "splash link: $(cat "$work/calls")"

fresh; if tc bogus 2>/dev/null; then bad "unknown argument accepted"; else [ $? = 2 ] && ok "an unknown argument: usage, exit 2" || bad "unknown argument: wrong status"; fi
echo "tock-config: $passed passed, $failed failed"
[ "$failed" = 0 ]
