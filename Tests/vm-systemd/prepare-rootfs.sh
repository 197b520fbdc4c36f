#!/usr/bin/env bash
# Fetch and build what the systemd VM test needs, into .cache/vm-systemd/
# (idempotent; the first run takes a few minutes, then about a second):
#
#   rootfs/                 Debian 12 (debootstrap --variant=minbase) with
#                           systemd, udev, adduser, libgpiod2, kmod, and mosquitto (the MQTT check)
#   initrd-<release>.cpio   busybox initramfs: loads virtio_blk, ext4 and
#                           virtio_net (the Debian kernel has them as
#                           modules; the network card carries the host's
#                           requests to the web page), mounts
#                           /dev/vda and switches to its /sbin/init
#
# It runs Tests/vm/prepare.sh first for the kernel, gpio-sim, irq_sim,
# configfs and busybox in .cache/vm/.
#
# VM_ARCH=arm64 (Tests/vm/arch.sh) makes the same for an arm64 guest in
# .cache/vm-systemd-arm64/: the root file system is the Raspberry Pi
# image's Debian 13 arm64 base root (deploy/image/base.sh, cached in
# .cache/image/; about 10 minutes the first time, with qemu-user and
# binfmt_misc), without ssh; the package and mosquitto are installed in the
# guest at the test's boot 0.
#
# Environment:
#   VM_ARCH           amd64 (default) or arm64
#   VM_CACHE          the Tests/vm cache (default: <repo>/.cache/vm, .cache/vm-arm64)
#   VMS_CACHE         this test's cache (default: <repo>/.cache/vm-systemd, .cache/vm-systemd-arm64)
#   VMS_SUITE         Debian suite of the amd64 root file system (default: bookworm)
#   VMS_MIRROR        Debian mirror (default: the one apt already uses)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=Tests/vm/arch.sh
. "$repo/Tests/vm/arch.sh"
vm_cache=${VM_CACHE:-$vm_cache_default}
if [ "$vm_arch" = amd64 ]; then
  cache=${VMS_CACHE:-$repo/.cache/vm-systemd}
  suite=${VMS_SUITE:-bookworm}
else
  cache=${VMS_CACHE:-$repo/.cache/vm-systemd-$vm_arch}
  suite=${VMS_SUITE:-trixie}
fi
export DEBIAN_FRONTEND=noninteractive VM_ARCH=$vm_arch

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
[ "$vm_arch" = amd64 ] || need+=("$vm_qemu_package:$vm_qemu")
missing=()
for pair in "${need[@]}"; do
  command -v "${pair#*:}" >/dev/null 2>&1 || missing+=("${pair%%:*}")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  say "installing host packages: ${missing[*]}"
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
fi

mirror=${VMS_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v -- '-security' | head -1 | tr -d ' ' || true)
  mirror=${mirror%/}; mirror=${mirror:-http://deb.debian.org/debian}
fi
# arm64: Debian 13's packages through the cross build's private apt
apt_dl=(apt-get -q -o APT::Sandbox::User=root download)
image_pkg=linux-image-$release
if [ "$vm_arch" != amd64 ]; then
  # shellcheck source=deploy/cross/lib.sh
  . "$repo/deploy/cross/lib.sh"
  xapt_setup || die "no package lists for $TARGET_SUITE"
  apt_dl=(xapt-get -q download)
  image_pkg=linux-image-$release:arm64=$(cat "$kdir/version")
fi

# ---------------------------------------------------------------- initramfs
initrd=$cache/initrd-$release.cpio
# ext4 asks the crypto API for crc32c (a soft dependency)
initrd_modules="crc32c_generic virtio_blk ext4 virtio_net"
if [ -f "$initrd" ] && [ "$initrd" -nt "$here/initrd-init.sh" ] \
    && [ "$(cat "$initrd.modules" 2>/dev/null)" = "$initrd_modules" ]; then
  say "initramfs: cached"
else
  img=$cache/debs/linux-image-$release
  if [ ! -e "$img/.done" ]; then
    mkdir -p "$cache/debs"
    rm -f "$cache"/debs/linux-image-"$release"_*.deb
    say "downloading linux-image-$release (for virtio_blk and ext4)"
    (cd "$cache/debs" && "${apt_dl[@]}" "$image_pkg" >/dev/null) \
      || { apt_update; (cd "$cache/debs" && "${apt_dl[@]}" "$image_pkg" >/dev/null); } \
      || die "apt-get download $image_pkg failed"
    rm -rf "$img.tmp"; mkdir -p "$img.tmp"
    dpkg -x "$cache"/debs/linux-image-"$release"_*.deb "$img.tmp"
    touch "$img.tmp/.done"
    rm -rf "$img"; mv "$img.tmp" "$img"
    rm -f "$cache"/debs/linux-image-"$release"_*.deb
  fi
  moddir=$img/lib/modules/$release
  [ -d "$moddir" ] || moddir=$img/usr/lib/modules/$release   # merged /usr (Debian 13)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work"/{bin,dev,proc,sys,newroot,modules}
  order=()
  modinfo_field() { LC_ALL=C readelf -p .modinfo "$1" 2>/dev/null | sed -n "s/^ *\[ *[0-9a-f]*\] *$2=//p"; }
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
  for m in $initrd_modules; do add_module "$m"; done
  printf '%s\n' "${order[@]}" > "$work/modules/load-order"
  cp "$vm_cache/busybox" "$work/bin/busybox"
  install -m 755 "$here/initrd-init.sh" "$work/init"
  (cd "$work" && find . -print0 | sort -z | cpio --quiet -o -0 -H newc -R 0:0) > "$initrd.tmp" || die "cpio failed"
  mv "$initrd.tmp" "$initrd"
  echo "$initrd_modules" > "$initrd.modules"
  say "initramfs ready: ${order[*]}"
fi

# ---------------------------------------------------------------- root file system
# tock_root_common DIR: what every test root gets before it is cached.
tock_root_common() {
  local r=$1
  rm -f "$r"/var/cache/apt/archives/*.deb
  # A machine id: no first-boot logic (systemd-firstboot would prompt on the console).
  od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$r/etc/machine-id"; echo >> "$r/etc/machine-id"
  echo tock-vm > "$r/etc/hostname"
  printf '/dev/vda / ext4 rw,errors=remount-ro 0 0\n' > "$r/etc/fstab"
  ln -sf /dev/null "$r/etc/systemd/system/systemd-firstboot.service"
}
if [ "$vm_arch" = amd64 ]; then
  # What the package depends on (dpkg -i installs no dependencies); tock-web's
  # zlib1g is in every Debian (minbase has it).
  packages=systemd,systemd-sysv,udev,adduser,libgpiod2,libyaml-0-2,libmosquitto1,mosquitto,mosquitto-clients,kmod,libstdc++6,init-system-helpers
  if [ -e "$cache/rootfs/.done" ] && [ "$(cat "$cache/rootfs/.done")" = "$suite $packages" ]; then
    say "root file system: cached"
  else
    t=$(date +%s)
    rm -rf "$cache/rootfs.tmp" "$cache/rootfs"
    say "debootstrap --variant=minbase $suite from $mirror (a few minutes)"
    if ! debootstrap --variant=minbase --include="$packages" "$suite" "$cache/rootfs.tmp" "$mirror" \
        > "$cache/debootstrap.log" 2>&1; then
      tail -20 "$cache/debootstrap.log" >&2
      die "debootstrap failed (log: $cache/debootstrap.log)"
    fi
    tock_root_common "$cache/rootfs.tmp"
    echo "$suite $packages" > "$cache/rootfs.tmp/.done"
    mv "$cache/rootfs.tmp" "$cache/rootfs"
    say "root file system ready in $(( $(date +%s) - t )) s ($(du -sh "$cache/rootfs" | cut -f1))"
  fi
else
  # arm64: the Raspberry Pi image's base root (deploy/image/base.sh: Debian
  # 13 arm64 made by mmdebstrap, its maintainer scripts run under
  # qemu-user; cached in .cache/image/ and shared with make image). It has
  # systemd, udev, kmod, apt, and already the package's dependencies
  # (libgpiod3, libmosquitto1, adduser): boot 0's apt install brings the
  # package and mosquitto from the local repository (local-repo.sh).
  base=$(bash "$repo/deploy/image/base.sh") || die "the image's base root (deploy/image/base.sh)"
  key="image-base $(basename "$base")"
  if [ -e "$cache/rootfs/.done" ] && [ "$(cat "$cache/rootfs/.done")" = "$key" ]; then
    say "root file system: cached ($key)"
  else
    rm -rf "$cache/rootfs.tmp" "$cache/rootfs"
    cp -a "$base" "$cache/rootfs.tmp"
    r=$cache/rootfs.tmp
    rm -f "$r/.done" "$r/.versions"
    # The image's sshd takes its host key from the image's /data, which
    # this root has not: ssh is left out here.
    rm -f "$r/etc/ssh/sshd_config.d/tock.conf"
    ln -sf /dev/null "$r/etc/systemd/system/ssh.service"
    ln -sf /dev/null "$r/etc/systemd/system/ssh.socket"
    tock_root_common "$r"
    echo "$key" > "$r/.done"
    mv "$r" "$cache/rootfs"
    say "root file system ready: the image's base ($(du -sh "$cache/rootfs" | cut -f1))"
  fi
fi
say "ready: $cache (kernel $release)"
