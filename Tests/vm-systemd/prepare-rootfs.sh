#!/usr/bin/env bash
# Fetch and build what the systemd VM test needs, into .cache/vm-systemd/
# (idempotent; the first run takes a few minutes, then about a second):
#
#   rootfs/                 Debian 12 (debootstrap --variant=minbase) with
#                           systemd, udev, adduser, libgpiod2, kmod, and mosquitto (the MQTT check)
#   initrd-<release>.cpio   busybox initramfs: loads virtio_blk and ext4 (the
#                           Debian kernel has them as modules), mounts
#                           /dev/vda and switches to its /sbin/init
#
# It runs Tests/vm/prepare.sh first for the kernel, gpio-sim, irq_sim,
# configfs and busybox in .cache/vm/.
#
# Environment:
#   VM_CACHE          the Tests/vm cache (default: <repo>/.cache/vm)
#   VMS_CACHE         this test's cache (default: <repo>/.cache/vm-systemd)
#   VMS_SUITE         Debian suite of the root file system (default: bookworm)
#   VMS_MIRROR        Debian mirror (default: the one apt already uses)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
vm_cache=${VM_CACHE:-$repo/.cache/vm}
cache=${VMS_CACHE:-$repo/.cache/vm-systemd}
suite=${VMS_SUITE:-bookworm}
export DEBIAN_FRONTEND=noninteractive

say() { printf 'prepare-rootfs: %s\n' "$*"; }
die() { printf 'prepare-rootfs: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (debootstrap and chroot need it)"

bash "$repo/Tests/vm/prepare.sh" | sed 's/^/  /'
[ "${PIPESTATUS[0]}" = 0 ] || die "Tests/vm/prepare.sh failed"
kdir=$vm_cache/kernel/current
release=$(basename "$(readlink -f "$kdir")")
[ -e "$kdir/.done" ] || die "no prepared kernel in $kdir"

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

apt_updated=
apt_update() {
  [ -n "$apt_updated" ] && return 0
  apt-get update -q >/dev/null || die "apt-get update failed"
  apt_updated=1
}
need=(debootstrap:debootstrap e2fsprogs:mkfs.ext4 xz-utils:xz binutils:objcopy cpio:cpio)
missing=()
for pair in "${need[@]}"; do
  command -v "${pair#*:}" >/dev/null 2>&1 || missing+=("${pair%%:*}")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  say "installing host packages: ${missing[*]}"
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
fi

# ---------------------------------------------------------------- root file system
packages=systemd,systemd-sysv,udev,adduser,libgpiod2,libmosquitto1,mosquitto,mosquitto-clients,kmod,libstdc++6,init-system-helpers
if [ -e "$cache/rootfs/.done" ] && [ "$(cat "$cache/rootfs/.done")" = "$suite $packages" ]; then
  say "root file system: cached"
else
  mirror=${VMS_MIRROR:-}
  if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
      | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v -- '-security' | head -1 | tr -d ' ' || true)
    mirror=${mirror%/}; mirror=${mirror:-http://deb.debian.org/debian}
  fi
  say "debootstrap --variant=minbase $suite from $mirror (a few minutes)"
  rm -rf "$cache/rootfs.tmp" "$cache/rootfs"
  if ! debootstrap --variant=minbase --include="$packages" "$suite" "$cache/rootfs.tmp" "$mirror" \
      > "$cache/debootstrap.log" 2>&1; then
    tail -20 "$cache/debootstrap.log" >&2
    die "debootstrap failed (log: $cache/debootstrap.log)"
  fi
  r=$cache/rootfs.tmp
  rm -f "$r"/var/cache/apt/archives/*.deb
  # A machine id: no first-boot logic (systemd-firstboot would prompt on the console).
  od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$r/etc/machine-id"; echo >> "$r/etc/machine-id"
  echo tock-vm > "$r/etc/hostname"
  printf '/dev/vda / ext4 rw,errors=remount-ro 0 0\n' > "$r/etc/fstab"
  ln -sf /dev/null "$r/etc/systemd/system/systemd-firstboot.service"
  echo "$suite $packages" > "$r/.done"
  mv "$r" "$cache/rootfs"
  say "root file system ready ($(du -sh "$cache/rootfs" | cut -f1))"
fi

# ---------------------------------------------------------------- initramfs
initrd=$cache/initrd-$release.cpio
if [ -f "$initrd" ] && [ "$initrd" -nt "$here/initrd-init.sh" ]; then
  say "initramfs: cached"
else
  img=$cache/debs/linux-image-$release
  if [ ! -d "$img/lib/modules/$release" ]; then
    mkdir -p "$cache/debs"
    rm -f "$cache"/debs/linux-image-"$release"_*.deb
    say "downloading linux-image-$release (for virtio_blk and ext4)"
    (cd "$cache/debs" && apt-get -q -o APT::Sandbox::User=root download "linux-image-$release" >/dev/null) \
      || { apt_update; (cd "$cache/debs" && apt-get -q -o APT::Sandbox::User=root download "linux-image-$release" >/dev/null); } \
      || die "apt-get download linux-image-$release failed"
    rm -rf "$img.tmp"; mkdir -p "$img.tmp"
    dpkg -x "$cache"/debs/linux-image-"$release"_*.deb "$img.tmp"
    rm -rf "$img"; mv "$img.tmp" "$img"
    rm -f "$cache"/debs/linux-image-"$release"_*.deb
  fi
  moddir=$img/lib/modules/$release
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work"/{bin,dev,proc,sys,newroot,modules}
  order=()
  modinfo_field() { objcopy -O binary --only-section=.modinfo "$1" /dev/stdout 2>/dev/null | tr '\0' '\n' | sed -n "s/^$2=//p"; }
  add_module() {   # dependencies first, then the module
    local name=$1 f dep
    case " ${order[*]:-} " in *" $name "*) return 0 ;; esac
    f=$(find "$moddir" \( -name "$name.ko*" -o -name "${name//_/-}.ko*" -o -name "${name//-/_}.ko*" \) | head -1)
    if [ -z "$f" ]; then
      grep -qE "/${name//[-_]/[-_]}\.ko\$" "$moddir/modules.builtin" 2>/dev/null && return 0
      die "module $name not found in linux-image-$release"
    fi
    case $f in
      *.xz) xz -dc "$f" > "$work/modules/$name.ko" ;;
      *.zst) zstd -dc "$f" > "$work/modules/$name.ko" ;;
      *) cp "$f" "$work/modules/$name.ko" ;;
    esac
    for dep in $(modinfo_field "$work/modules/$name.ko" depends | tr ',' ' '); do add_module "$dep"; done
    order+=("$name")
  }
  # ext4 asks the crypto API for crc32c (a soft dependency)
  for m in crc32c_generic virtio_blk ext4; do add_module "$m"; done
  printf '%s\n' "${order[@]}" > "$work/modules/load-order"
  cp "$vm_cache/busybox" "$work/bin/busybox"
  install -m 755 "$here/initrd-init.sh" "$work/init"
  (cd "$work" && find . -print0 | sort -z | cpio --quiet -o -0 -H newc -R 0:0) > "$initrd.tmp" || die "cpio failed"
  mv "$initrd.tmp" "$initrd"
  say "initramfs ready: ${order[*]}"
fi
say "ready: $cache (kernel $release)"
