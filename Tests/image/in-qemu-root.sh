#!/usr/bin/env bash
# Run a command in the QEMU root (Tests/image/qemu-root.sh) as the host's
# root user, in a private mount namespace: /proc, /dev and /sys as on the
# host, and DIR (the test's work directory, which holds the card) at the
# same path inside. The network is the host's (QEMU's user-mode network
# forwards ports on the host's loopback). The command replaces this
# process (a signal to it reaches the command).
#
#   bash Tests/image/in-qemu-root.sh ROOT DIR COMMAND [ARG]...
set -euo pipefail
root=$1 dir=$2; shift 2
exec unshare -m --propagation private /bin/bash -c '
  set -e
  r=$1 d=$2; shift 2
  mount -t proc proc "$r/proc"
  mount --rbind /dev "$r/dev"
  mount --rbind /sys "$r/sys"
  mkdir -p "$r$d"
  mount --bind "$d" "$r$d"
  exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/bin:/bin "$@"
' in-qemu-root "$root" "$dir" "$@"
