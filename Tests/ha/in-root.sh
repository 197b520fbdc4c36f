#!/usr/bin/env bash
# Run a command in Home Assistant's root (Tests/ha/root.sh), as the host's
# root user, in a private mount namespace: /proc, /dev and /sys as on the
# host, and the host's /tmp at /tmp (the test's directories keep their
# paths). The network is the host's: 127.0.0.1 is the same on both sides.
# The command replaces this process (same pid: a signal to it reaches it).
#
#   bash Tests/ha/in-root.sh ROOT COMMAND [ARG]...
set -euo pipefail
root=$1; shift
exec unshare -m --propagation private /bin/bash -c '
  set -e
  r=$1; shift
  mount -t proc proc "$r/proc"
  mount --rbind /dev "$r/dev"
  mount --rbind /sys "$r/sys"
  mount --bind /tmp "$r/tmp"
  touch "$r/etc/ssl/certs/host-ca.crt"
  mount --bind /etc/ssl/certs/ca-certificates.crt "$r/etc/ssl/certs/host-ca.crt"
  exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/venv/bin:/usr/bin:/bin "$@"
' in-root "$root" "$@"
