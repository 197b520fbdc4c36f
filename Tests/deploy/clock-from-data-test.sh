#!/usr/bin/env bash
# deploy/image/rootfs/clock-from-data against crafted data partitions: it
# sets the clock only to a time tock trusts (1970 to 2199-09-22), never to a
# file dated later, and a file name with a newline never reaches the parse.
# `date` is a stand-in on PATH: the host's clock is never set.
set -euo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/deploy/image/rootfs/clock-from-data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
cat > "$work/bin/date" <<'STUB'
#!/bin/sh
# The clock reads 2026-11-27 12:00 UTC; a set is recorded, not made.
case "$*" in
  "+%s.%N") echo 1795780800.000000000 ;;
  *"-s "*) echo "$*" >> "$SET_LOG" ;;
  *) exec /bin/date -d @1795780800 "$@" 2>/dev/null || /bin/date "$@" ;;
esac
STUB
chmod +x "$work/bin/date"
passed=0 failed=0
check() {  # what, expected set (or "none"), then the files: name=YYYY-MM-DDTHH:MM:SSZ ...
  local what=$1 want=$2; shift 2
  local d="$work/case"; rm -rf "$d"; mkdir -p "$d"
  for f in "$@"; do
    local name=${f%%=*} when=${f#*=}
    touch -d "$when" "$d/$name"
  done
  : > "$work/set.log"
  local out; out=$(SET_LOG="$work/set.log" PATH="$work/bin:$PATH" sh "$script" "$d" 2>&1)
  local got; got=$(sed -n 's/.*-s @\([0-9]*\).*/\1/p' "$work/set.log")
  [ -n "$got" ] || got=none
  if [ "$got" = "$want" ]; then
    passed=$((passed + 1)); echo "ok: $what (set: $got)"
  else
    failed=$((failed + 1)); echo "FAIL: $what: set $got, want $want; it said: $out"
  fi
}
# 2026-11-27T12:00:00Z is 1795780800: a later file moves the clock forward.
check "a state file a minute ahead of the clock" 1795780860 "state.json=2026-11-27T12:01:00Z"
check "a state file behind the clock" none "state.json=2026-11-27T11:00:00Z"
check "the newest of several" 1795780920 "a=2026-11-27T12:01:00Z" "b=2026-11-27T12:02:00Z" "c=2025-01-01T00:00:00Z"
check "a file dated 2199-12-31 is ignored" none "state.json=2199-12-31T22:00:00Z"
check "a file dated 2200 is ignored, a good one still counts" 1795780860 "x=2200-01-01T03:00:00Z" "state.json=2026-11-27T12:01:00Z"
check "a file dated 2264 is ignored" none "state.json=2264-01-01T00:00:00Z"
check "the last trusted second counts" 7249478399 "state.json=2199-09-22T23:59:59Z"
check "a newline in a name never reaches the parse" 1795780860 "$(printf 'evil\n9999999999 x')=2026-11-27T12:01:00Z"
check "an empty folder" none
echo "clock-from-data: $passed passed, $failed failed"
[ "$failed" = 0 ]
