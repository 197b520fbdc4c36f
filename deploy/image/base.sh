#!/usr/bin/env bash
# The image's base: Debian 13 arm64 with IMAGE_PACKAGES (deploy/image/lib.sh)
# installed and configured, cached as .cache/image/base-trixie-arm64-<key>/.
# The maintainer scripts are arm64 programs: they run under qemu-user
# (qemu-user-static with binfmt_misc; this script mounts binfmt_misc when it
# is not). 10-20 minutes the first time on two cores.
#
#   deploy/image/base.sh        prints the base's path (waits while another
#                               run builds it)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/image/lib.sh
. "$here/lib.sh"
say() { printf 'image-base: %s\n' "$*" >&2; }
die() { printf 'image-base: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap and chroot need it)"

# One build at a time: make test starts one beside its first stages
# (make image-base-background) and the stages that need the base wait here
# for it, then find it cached (or, if it failed, build it again and say why).
mkdir -p "$IMAGE_CACHE"
exec 9> "$IMAGE_CACHE/.base.lock"
if ! flock -n 9; then
  say "waiting for the base being built beside (log: $IMAGE_CACHE/base.log)"
  flock 9
fi
if [ -e "$IMAGE_BASE/.done" ] && [ "${IMAGE_REFRESH:-0}" != 1 ]; then
  say "cached ($IMAGE_BASE)"; echo "$IMAGE_BASE"; exit 0
fi
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
  || die "binfmt_misc cannot be mounted here (the arm64 maintainer scripts need qemu-user)"
# qemu-user-static registers itself when it is installed; installed while
# binfmt_misc was not mounted (a container), it is registered here.
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || ! command -v update-binfmts >/dev/null \
  || update-binfmts --import qemu-aarch64 >/dev/null 2>&1 || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "no qemu-aarch64 in binfmt_misc: apt-get install qemu-user-static binfmt-support"

t=$(date +%s)
say "mmdebstrap $IMAGE_SUITE $IMAGE_ARCH (10-20 minutes; the time of each step in $IMAGE_CACHE/base.log)"
rm -rf "$IMAGE_BASE.tmp" "$IMAGE_BASE"
dpkgopts=()
for o in "${IMAGE_DPKG_EXCLUDES[@]}"; do dpkgopts+=(--dpkgopt="$o"); done
# Every arm64 program of the install runs under qemu-user; three things
# cost most of the time and are done once here instead of several times:
# - the initramfs (MODULES=most, 3-4 minutes under emulation) was made when
#   the kernel was set up and again when later packages (udev, kmod, zstd,
#   the firmware) triggered initramfs-tools: update-initramfs is diverted to
#   a no-op for the install and run once at the end;
# - update-ca-certificates likewise (once by ca-certificates' postinst, once
#   by its trigger);
# - openssh-server's postinst makes RSA, ECDSA and Ed25519 host keys, which
#   the image deletes (each box makes its own on /data): with the image's
#   sshd drop-in in place first, its only HostKey is the one on /data and
#   no key is made here.
# dpkg runs with force-unsafe-io (no fsync per file: a failed build is
# thrown away anyway); the option is removed from the root at the end so
# that apt on a box syncs as usual.
# The initramfs must mount an ext4 root from the SD card: crc32c_generic is
# what ext4's checksums use when the CPU's CRC instructions are not offered
# (QEMU's raspi3b); the hook is in place before the initramfs is made.
divert='for f in /usr/sbin/update-initramfs /usr/sbin/update-ca-certificates; do
    chroot "$1" dpkg-divert --quiet --local --rename --add "$f"
    printf "#!/bin/sh\n# image-base: run once at the end (deploy/image/base.sh)\nexit 0\n" > "$1$f"; chmod 755 "$1$f"
  done'
undivert='for f in /usr/sbin/update-initramfs /usr/sbin/update-ca-certificates; do
    rm -f "$1$f"; chroot "$1" dpkg-divert --quiet --local --rename --remove "$f"
  done
  echo "image-base: update-ca-certificates"; chroot "$1" update-ca-certificates --fresh
  echo "image-base: update-initramfs"; chroot "$1" update-initramfs -c -k all
  sed -i "/^force-unsafe-io\$/d" "$1/etc/dpkg/dpkg.cfg.d/99mmdebstrap"'
if ! mmdebstrap --verbose --variant=apt --architectures="$IMAGE_ARCH" --components=main,non-free-firmware \
  --dpkgopt=force-unsafe-io "${dpkgopts[@]}" \
  --setup-hook='mkdir -p "$1/etc/initramfs-tools/hooks" "$1/boot/firmware" "$1/etc/ssh/sshd_config.d"' \
  --setup-hook="install -m 0755 '$here/rootfs/initramfs-hook' \"\$1/etc/initramfs-tools/hooks/tock\"" \
  --setup-hook="install -m 0644 '$here/rootfs/etc/sshd-tock.conf' \"\$1/etc/ssh/sshd_config.d/tock.conf\"" \
  --essential-hook="$divert" --customize-hook="$undivert" \
  --include="$IMAGE_PACKAGES" \
  "$IMAGE_SUITE" "$IMAGE_BASE.tmp" "$(debian_mirror)" 2>&1 \
  | while IFS= read -r line; do printf '%6d %s\n' $(( $(date +%s) - t )) "$line"; done > "$IMAGE_CACHE/base.log"; then
  tail -20 "$IMAGE_CACHE/base.log" >&2; die "mmdebstrap failed (log: $IMAGE_CACHE/base.log)"
fi
! grep -q force-unsafe-io "$IMAGE_BASE.tmp/etc/dpkg/dpkg.cfg.d/99mmdebstrap" || die "force-unsafe-io left in the root's dpkg.cfg.d"
ls "$IMAGE_BASE.tmp"/boot/initrd.img-* >/dev/null 2>&1 || die "no initramfs in the base (log: $IMAGE_CACHE/base.log)"
chroot "$IMAGE_BASE.tmp" dpkg-query -W -f '${Package} ${Version}\n' > "$IMAGE_BASE.tmp/.versions"
date -u +%FT%TZ > "$IMAGE_BASE.tmp/.done"
mv "$IMAGE_BASE.tmp" "$IMAGE_BASE"
say "ready in $(( $(date +%s) - t )) s: $(du -sh "$IMAGE_BASE" | cut -f1)"
echo "$IMAGE_BASE"
