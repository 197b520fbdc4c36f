#!/usr/bin/env bash
# The image's base: Debian 13 arm64 with IMAGE_PACKAGES (deploy/image/lib.sh)
# installed and configured, cached as .cache/image/base-trixie-arm64-<key>/.
# The maintainer scripts are arm64 programs: they run under qemu-user
# (qemu-user-static with binfmt_misc; this script mounts binfmt_misc when it
# is not). A few minutes the first time.
#
#   deploy/image/base.sh        prints the base's path
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/image/lib.sh
. "$here/lib.sh"
say() { printf 'image-base: %s\n' "$*" >&2; }
die() { printf 'image-base: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap and chroot need it)"

if [ -e "$IMAGE_BASE/.done" ] && [ "${IMAGE_REFRESH:-0}" != 1 ]; then
  say "cached ($IMAGE_BASE)"; echo "$IMAGE_BASE"; exit 0
fi
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
  || die "binfmt_misc cannot be mounted here (the arm64 maintainer scripts need qemu-user)"
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "no qemu-aarch64 in binfmt_misc: apt-get install qemu-user-static binfmt-support"

mkdir -p "$IMAGE_CACHE"
t=$(date +%s)
say "mmdebstrap $IMAGE_SUITE $IMAGE_ARCH (a few minutes)"
rm -rf "$IMAGE_BASE.tmp" "$IMAGE_BASE"
dpkgopts=()
for o in "${IMAGE_DPKG_EXCLUDES[@]}"; do dpkgopts+=(--dpkgopt="$o"); done
# The initramfs must mount an ext4 root from the SD card: crc32c_generic is
# what ext4's checksums use when the CPU's CRC instructions are not offered
# (QEMU's raspi3b); the hook is in place before the kernel's postinst runs
# update-initramfs.
mmdebstrap --variant=apt --architectures="$IMAGE_ARCH" --components=main,non-free-firmware \
  "${dpkgopts[@]}" \
  --setup-hook='mkdir -p "$1/etc/initramfs-tools/hooks" "$1/boot/firmware"' \
  --setup-hook="install -m 0755 '$here/rootfs/initramfs-hook' \"\$1/etc/initramfs-tools/hooks/tock\"" \
  --include="$IMAGE_PACKAGES" \
  "$IMAGE_SUITE" "$IMAGE_BASE.tmp" "$(debian_mirror)" > "$IMAGE_CACHE/base.log" 2>&1 \
  || { tail -20 "$IMAGE_CACHE/base.log" >&2; die "mmdebstrap failed (log: $IMAGE_CACHE/base.log)"; }
chroot "$IMAGE_BASE.tmp" dpkg-query -W -f '${Package} ${Version}\n' > "$IMAGE_BASE.tmp/.versions"
date -u +%FT%TZ > "$IMAGE_BASE.tmp/.done"
mv "$IMAGE_BASE.tmp" "$IMAGE_BASE"
say "ready in $(( $(date +%s) - t )) s: $(du -sh "$IMAGE_BASE" | cut -f1)"
echo "$IMAGE_BASE"
