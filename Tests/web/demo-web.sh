#!/usr/bin/env bash
# make demo-web: a mock box and tock-web on 127.0.0.1:PORT; the box's
# display is printed as it changes (tock watch), so the pairing code shows
# here. Ctrl-C stops both.
set -euo pipefail
tock=$1 web=$2 port=${3:-8080}
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
"$tock" run --backend mock --socket "$dir/control.sock" --state "$dir/state.json" 2>"$dir/tock.log" &
for _ in $(seq 100); do [ -S "$dir/control.sock" ] && break; sleep 0.05; done
"$web" --listen 127.0.0.1 --port "$port" --socket "$dir/control.sock" --tokens "$dir/tokens.json" &
echo "open http://127.0.0.1:$port/ ; the box's display follows (the pairing code appears here):"
"$tock" watch --socket "$dir/control.sock"
