#!/usr/bin/env bash
# make demo-web: one simulated box for the keys, the command line and the
# page. The desk simulator runs in this terminal (keys s x r, q quits) and
# serves the control socket; tock-web serves the page on WEB_LISTEN:PORT
# (127.0.0.1 unless told otherwise); `tock status` in another terminal
# reaches the same box. The pairing code appears on the simulator's display.
set -euo pipefail
tock=$1 web=$2 port=${3:-8080} listen=${WEB_LISTEN:-127.0.0.1}
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
sock="$dir/control.sock"
"$web" --listen "$listen" --port "$port" --socket "$sock" --tokens "$dir/tokens.json" 2>"$dir/tock-web.log" &
echo "the page: http://127.0.0.1:$port/"
if [ "$listen" != 127.0.0.1 ] && [ "$listen" != localhost ]; then
  echo
  echo "*** WEB_LISTEN=$listen: the page is open to every device on this network. ***"
  echo "*** Anyone who sees the code on the display can pair; stop with q when done. ***"
  for a in $(hostname -I 2>/dev/null); do
    case $a in *:*) ;; *) echo "    from a phone: http://$a:$port/";; esac
  done
  echo
fi
echo "the command line: $tock status --socket $sock   (or export TOCK_SOCKET=$sock)"
echo "tock-web's log: $dir/tock-web.log; starting the simulator ..."
sleep 3
TOCK_SOCKET=$sock "$tock" sim --socket "$sock"
