#!/usr/bin/env bash
# A Debian 13 (trixie) amd64 root with its QEMU (qemu-system-arm 10.0, which
# has the raspi4b machine; Debian 12's 7.2 does not) and the device tree
# tools (dtc, fdtput), for make image-pi4 (Tests/image/pi4-test.sh). Cached
# as CACHE_DIR/qemu-root-trixie-<key>/, the key made of the suite, the
# package list and this script; the versions it got are in .versions.
#
#   bash Tests/image/qemu-root.sh CACHE_DIR     -> prints the root's path
#
# Run a program in it with Tests/image/in-qemu-root.sh. About 2 minutes
# the first time (mmdebstrap, no emulation: amd64 on amd64). Needs root.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/cross/lib.sh
. "$here/../../deploy/cross/lib.sh"   # debian_mirror
cache=$(realpath -m "${1:?usage: qemu-root.sh CACHE_DIR}")
die() { printf 'qemu-root: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap and chroot need it)"
suite=trixie
# qemu-system-arm brings qemu-system-aarch64; its recommendations (the GUI,
# firmware for other boards) are not installed.
packages=qemu-system-arm,device-tree-compiler
key=$({ echo "$suite $packages"; cat "$0"; } | md5sum | cut -c1-12)
root=$cache/qemu-root-$suite-$key
mkdir -p "$cache"
exec 9> "$cache/.qemu-root-$suite-$key.lock"
flock 9
if [ -e "$root/.done" ]; then echo "$root"; exit 0; fi
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
t=$(date +%s)
rm -rf "$root.tmp"
echo "qemu-root: mmdebstrap $suite with $packages" >&2
mmdebstrap --variant=apt --include="$packages" --dpkgopt=path-exclude=/usr/share/doc/* \
  --dpkgopt=path-exclude=/usr/share/man/* --dpkgopt=path-exclude=/usr/share/locale/* \
  "$suite" "$root.tmp" "$(debian_mirror)" > "$cache/qemu-root-$suite-$key.log" 2>&1 \
  || { tail -15 "$cache/qemu-root-$suite-$key.log" >&2; die "mmdebstrap failed (log: $cache/qemu-root-$suite-$key.log)"; }
chroot "$root.tmp" dpkg-query -W -f '${Package} ${Version}\n' > "$root.tmp/.versions"
chroot "$root.tmp" qemu-system-aarch64 -machine help | grep -q '^raspi4b ' \
  || die "the root's qemu-system-aarch64 has no raspi4b machine ($(chroot "$root.tmp" qemu-system-aarch64 --version | head -1))"
date -u +%FT%TZ > "$root.tmp/.done"
mv "$root.tmp" "$root"
echo "qemu-root: $(chroot "$root" qemu-system-aarch64 --version | head -1) in $(( $(date +%s) - t )) s, $(du -sh "$root" | cut -f1)" >&2
echo "$root"
