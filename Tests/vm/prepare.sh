#!/usr/bin/env bash
# Fetch and build what the GPIO VM tests need, into .cache/vm/ (idempotent):
#
#   kernel/<release>/vmlinuz          Debian's kernel image
#   kernel/<release>/vmlinux          the same, uncompressed (PVH boot, faster under TCG)
#   kernel/<release>/modules/*.ko     configfs (+ its dependencies) from the image package,
#                                     irq_sim and gpio-sim built out of tree
#   kernel/<release>/load-order       the order /init insmods them
#   kernel/current                    symlink to the release in use
#   busybox                           static busybox (Debian's busybox-static)
#   gpiod2/include/gpiod.h            libgpiod v2 (Debian 13's libgpiod-dev)
#   gpiod2/lib/libgpiod.a             static library only, so -lgpiod picks it
#   gpiod2/lib/pkgconfig/libgpiod.pc  pkg-config file pointing at the two above
#
# VM_ARCH=arm64 (Tests/vm/arch.sh) prepares the same for an arm64 guest in
# .cache/vm-arm64/: Debian 13's arm64 kernel, gpio-sim built for it with
# Debian's aarch64 cross gcc in the build root of deploy/cross/ (prepared
# first), the arm64 busybox-static; no vmlinux (QEMU boots the arm64 image
# directly) and no libgpiod v2 (the arm64 programs link Debian 13's).
#
# Environment:
#   VM_ARCH             amd64 (default) or arm64
#   VM_CACHE            cache directory (default: <repo>/.cache/vm, .cache/vm-arm64)
#   VM_KERNEL_META      kernel meta-package (default: linux-image-6.12-amd64,
#                       trixie's linux-image-arm64)
#   VM_KERNEL_RELEASE   use this release instead of the meta-package's
#   VM_GPIOD2_SUITE     Debian suite that carries libgpiod v2 (default: trixie)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=Tests/vm/arch.sh
. "$here/arch.sh"
cache=${VM_CACHE:-$vm_cache_default}
meta=${VM_KERNEL_META:-$vm_kernel_meta}
suite2=${VM_GPIOD2_SUITE:-trixie}
export DEBIAN_FRONTEND=noninteractive

say() { printf 'prepare: %s\n' "$*"; }
die() { printf 'prepare: ERROR: %s\n' "$*" >&2; exit 1; }
sudo_=; [ "$(id -u)" = 0 ] || sudo_=sudo

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# One prepare at a time for a cache: make test's lanes run it from vm-test
# and from systemd-test (through prepare-rootfs.sh) side by side, and two
# builds of the kernel's modules in the same work directory remove each
# other's files. The second waits, then finds everything made.
exec 9>"$cache/.prepare.lock"
if ! flock -n 9; then
  say "another prepare.sh is preparing $cache: waiting for it"
  flock 9
fi

# ---------------------------------------------------------------- host packages
apt_updated=
apt_update() {
  [ -n "$apt_updated" ] && return 0
  say "apt-get update"
  $sudo_ apt-get update -q >/dev/null || die "apt-get update failed (is the Debian archive reachable?)"
  apt_updated=1
}

# package:command pairs; a package is installed only when its command is missing
need=(
  "$vm_qemu_package:$vm_qemu"
  cpio:cpio
  xz-utils:xz
  make:make
  binutils:objcopy
  zstd:zstd
  gcc:gcc
  libgpiod-dev:/usr/include/gpiod.h
)
missing=()
for pair in "${need[@]}"; do
  pkg=${pair%%:*} probe=${pair#*:}
  case $probe in
    /*) [ -e "$probe" ] || missing+=("$pkg") ;;
    *) command -v "$probe" >/dev/null 2>&1 || missing+=("$pkg") ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  apt_update
  say "installing host packages: ${missing[*]}"
  $sudo_ apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi

# apt-get download as root cannot hand the file to _apt in every directory
apt_dl=(apt-get -q -o APT::Sandbox::User=root download)
apt_cache=(apt-cache)
native=1
if [ "$vm_arch" = arm64 ]; then
  # Debian 13's packages through the cross build's private apt; the build
  # root cross-compiles the kernel modules.
  native=0
  # shellcheck source=deploy/cross/lib.sh
  . "$repo/deploy/cross/lib.sh"
  bash "$repo/deploy/cross/prepare.sh" root sysroot | sed 's/^/  /'
  [ "${PIPESTATUS[0]}" = 0 ] || die "deploy/cross/prepare.sh failed"
  xapt_setup || die "no package lists for $TARGET_SUITE"
  apt_dl=(xapt-get -q download)
  apt_cache=(xapt-cache)
  apt_update() { :; }
fi
# pkg_version PACKAGE: the version apt would take (for arm64: $TARGET_SUITE's, arm64)
pkg_version() {
  if [ "$native" = 1 ]; then
    apt-cache show "$1" 2>/dev/null | awk '/^Version:/{print $2; exit}'
  else
    "${apt_cache[@]}" madison "$1:arm64" 2>/dev/null | awk -F' [|] ' -v s="$TARGET_SUITE/" '$3 ~ s {gsub(/ /, "", $2); print $2; exit}'
  fi
}
# modinfo_field KO FIELD (readelf reads a module of any architecture)
modinfo_field() { LC_ALL=C readelf -p .modinfo "$1" 2>/dev/null | sed -n "s/^ *\[ *[0-9a-f]*\] *$2=//p"; }

# ---------------------------------------------------------------- kernel release
release=${VM_KERNEL_RELEASE:-}
if [ -z "$release" ] && [ "$native" = 0 ]; then
  v=$(pkg_version "$meta")
  dep=$("${apt_cache[@]}" show "$meta:arm64=$v" 2>/dev/null | sed -n 's/^Depends: *//p' | head -1 | tr ',' '\n' | grep -o 'linux-image-[^ ]*-arm64' | head -1) || true
  [ -n "$dep" ] || die "cannot resolve $meta in $TARGET_SUITE (arm64)"
  release=${dep#linux-image-}
fi
if [ -z "$release" ]; then
  dep=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}') || true
  if [ -z "$dep" ]; then
    apt_update
    dep=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}') || true
  fi
  if [ -n "$dep" ]; then
    release=${dep#linux-image-}
  elif [ -e "$cache/kernel/current/.done" ]; then
    release=$(basename "$(readlink -f "$cache/kernel/current")")
    say "apt cannot resolve $meta; using the cached kernel $release"
  else
    die "apt cannot resolve $meta (try: apt-cache policy $meta; set VM_KERNEL_META or VM_KERNEL_RELEASE)"
  fi
fi
kdir=$cache/kernel/$release

# extract_vmlinux BZIMAGE OUT: the uncompressed kernel, if it can be booted
# directly (PVH entry note). Under TCG this skips about 4 s of decompression
# per boot. Without it run-in-vm.sh boots the bzImage.
extract_vmlinux() {
  local bz=$1 out=$2 magic tool off
  for pair in '\x28\xb5\x2f\xfd:zstd -dcq' '\xfd\x37\x7a\x58\x5a\x00:xz -dcq' '\x1f\x8b\x08:gzip -dcq'; do
    magic=${pair%%:*} tool=${pair#*:}
    command -v "${tool%% *}" >/dev/null || continue
    for off in $(LC_ALL=C grep -obUaP "$magic" "$bz" | cut -d: -f1 | head -5); do
      tail -c +$((off + 1)) "$bz" | $tool > "$out" 2>/dev/null || true
      if readelf -h "$out" >/dev/null 2>&1; then
        if readelf -n "$out" 2>/dev/null | grep -q 'Unknown note type: (0x00000012)'; then
          say "extracted vmlinux (PVH entry) from the bzImage"
          return 0
        fi
        break 2
      fi
    done
  done
  rm -f "$out"; touch "$out.none"
  say "no directly bootable vmlinux in the bzImage; the VM boots the bzImage (slower)"
}

build_kernel() {
  local work=$cache/work/$release
  rm -rf "$work"; mkdir -p "$work/debs" "$work/root" "$work/mod"
  local img=linux-image-$release
  local version
  version=$(pkg_version "$img")
  [ -n "$version" ] || { apt_update; version=$(pkg_version "$img"); }
  [ -n "$version" ] || die "apt does not know $img (apt-cache policy $img)"
  local kbuild_ver=${release%-*}             # 6.12.117+deb12-amd64 -> 6.12.117+deb12
  local mm; mm=$(echo "$release" | cut -d. -f1,2)   # 6.12
  local pkgs=("$img" "linux-headers-$release" "linux-headers-$kbuild_ver-common"
              "linux-kbuild-$kbuild_ver" "linux-source-$mm=$version")
  # arm64: the target's image and headers, this machine's kbuild tools
  # (the signed image may carry another version than the source package's)
  local hv
  [ "$native" = 1 ] || { hv=$(pkg_version "linux-headers-$release"); [ -n "$hv" ] || die "no linux-headers-$release in $TARGET_SUITE";
    pkgs=("$img:arm64=$version" "linux-headers-$release:arm64=$hv"
          "linux-headers-$kbuild_ver-common=$hv" "linux-kbuild-$kbuild_ver:amd64=$hv" "linux-source-$mm=$hv"); }
  say "downloading ${pkgs[*]} (about 280 MB)"
  (cd "$work/debs" && "${apt_dl[@]}" "${pkgs[@]}" >/dev/null) \
    || die "apt-get download failed for: ${pkgs[*]} (apt-cache policy linux-source-$mm $img)"

  say "unpacking the kernel image and headers"
  local d
  for d in "$work"/debs/linux-image-*.deb "$work"/debs/linux-headers-*.deb "$work"/debs/linux-kbuild-*.deb; do
    dpkg -x "$d" "$work/root"
  done
  say "extracting gpio-sim.c and irq_sim.c from linux-source-$mm"
  dpkg-deb --fsys-tarfile "$work"/debs/linux-source-*.deb \
    | tar -xO "./usr/src/linux-source-$mm.tar.xz" \
    | xz -dc \
    | tar -x -C "$work/mod" --strip-components=3 \
        "linux-source-$mm/drivers/gpio/gpio-sim.c" "linux-source-$mm/kernel/irq/irq_sim.c" \
    || die "could not extract gpio-sim.c / irq_sim.c from linux-source-$mm"
  [ -f "$work/mod/gpio-sim.c" ] && [ -f "$work/mod/irq_sim.c" ] || die "sources missing after extraction"

  # irq_sim is built in only when selected; build it as a module. irq_to_desc()
  # is not exported, generic_handle_irq() runs the same handle_simple_irq flow.
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$work/mod/irq_sim.c"
  grep -q 'generic_handle_irq(irqnum)' "$work/mod/irq_sim.c" \
    || die "irq_sim.c changed upstream: the irq_to_desc() call to replace was not found"
  if ! grep -q MODULE_LICENSE "$work/mod/irq_sim.c"; then
    printf '\n#include <linux/module.h>\nMODULE_LICENSE("GPL");\nMODULE_DESCRIPTION("Interrupt simulator (out of tree)");\n' >> "$work/mod/irq_sim.c"
  fi
  printf 'obj-m += irq_sim.o gpio-sim.o\n' > "$work/mod/Kbuild"

  local hdr=$work/root/usr/src/linux-headers-$release
  [ -f "$hdr/Makefile" ] || die "headers not found at $hdr"
  local cc; cc=$(awk -F'gcc-' '/^CC /{print $2; exit}' "$hdr/.kernelvariables" 2>/dev/null || true)
  local btf=
  command -v pahole >/dev/null || btf="CONFIG_DEBUG_INFO_BTF_MODULES="
  if [ "$native" = 0 ]; then
    # irq_sim is built into some kernels (selected by a driver); then only gpio-sim.
    if grep -q '^CONFIG_IRQ_SIM=y' "$work/root/boot/config-$release"; then
      printf 'obj-m += gpio-sim.o\n' > "$work/mod/Kbuild"
    fi
    local in_work; in_work=$(root_path "$work") || die "$work is neither under $repo nor $CROSS_CACHE"
    sed -i "s|/usr/src/|$in_work/root/usr/src/|g" "$hdr/Makefile"
    say "building gpio-sim.ko (and irq_sim.ko unless built in) for arm64 with aarch64-linux-gnu-gcc-${cc:-14}"
    in_root make -s -C "$in_work/root/usr/src/linux-headers-$release" M="$in_work/mod" ARCH=arm64 \
        CROSS_COMPILE=aarch64-linux-gnu- CC="aarch64-linux-gnu-gcc-${cc:-14}" CONFIG_DEBUG_INFO_BTF_MODULES= \
        -j"$(nproc)" modules > "$work/build.log" 2>&1 \
      || { tail -30 "$work/build.log" >&2; die "module build failed (log: $work/build.log)"; }
  else
  sed -i "s|/usr/src/|$work/root/usr/src/|g" "$hdr/Makefile"
  if [ -n "$cc" ] && ! command -v "x86_64-linux-gnu-gcc-$cc" >/dev/null; then
    apt_update; say "installing gcc-$cc (the kernel's compiler)"
    $sudo_ apt-get install -y -q --no-install-recommends "gcc-$cc" >/dev/null || die "apt-get install gcc-$cc failed"
  fi
  say "building irq_sim.ko and gpio-sim.ko out of tree"
  make -s -C "$hdr" M="$work/mod" $btf -j"$(nproc)" modules > "$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; die "module build failed (log: $work/build.log)"; }
  fi

  local stage=$kdir.tmp
  rm -rf "$stage"; mkdir -p "$stage/modules"
  cp "$work/root/boot/vmlinuz-$release" "$stage/vmlinuz"
  cp "$work/root/boot/config-$release" "$stage/config"
  [ "$native" = 0 ] || extract_vmlinux "$stage/vmlinuz" "$stage/vmlinux"

  # configfs from the image (unless built in), with its dependencies, decompressed
  local moddir=$work/root/lib/modules/$release
  [ -d "$moddir" ] || moddir=$work/root/usr/lib/modules/$release   # merged /usr (Debian 13)
  local order=()
  add_module() {   # add_module NAME: its dependencies first, then itself
    local name=$1 f dep
    case " ${order[*]:-} " in *" $name "*) return 0 ;; esac
    f=$(find "$moddir" \( -name "$name.ko" -o -name "$name.ko.xz" -o -name "$name.ko.zst" -o -name "$name.ko.gz" \
          -o -name "${name//_/-}.ko" -o -name "${name//_/-}.ko.xz" -o -name "${name//-/_}.ko" -o -name "${name//-/_}.ko.xz" \) | head -1)
    [ -n "$f" ] || die "module $name not found in $img"
    case $f in
      *.xz) xz -dc "$f" > "$stage/modules/$name.ko" ;;
      *.zst) zstd -dc "$f" > "$stage/modules/$name.ko" ;;
      *.gz) gzip -dc "$f" > "$stage/modules/$name.ko" ;;
      *) cp "$f" "$stage/modules/$name.ko" ;;
    esac
    for dep in $(modinfo_field "$stage/modules/$name.ko" depends | tr ',' ' '); do add_module "$dep"; done
    order+=("$name")
  }
  if grep -q '^CONFIG_CONFIGFS_FS=m' "$stage/config"; then
    add_module configfs
  elif grep -q '^CONFIG_CONFIGFS_FS=y' "$stage/config"; then
    say "configfs is built into $release"
  else
    die "CONFIG_CONFIGFS_FS is off in $release: gpio-sim cannot be configured"
  fi
  local sim=(irq_sim gpio-sim)
  [ -f "$work/mod/irq_sim.ko" ] || { sim=(gpio-sim); say "irq_sim is built into $release"; }
  local m
  for m in "${sim[@]}"; do cp "$work/mod/$m.ko" "$stage/modules/"; done
  local dep
  for dep in $(modinfo_field "$stage/modules/gpio-sim.ko" depends | tr ',' ' '); do
    [ "$dep" = irq_sim ] || add_module "$dep"
  done
  order+=("${sim[@]}")
  printf '%s\n' "${order[@]}" > "$stage/load-order"
  for m in "${order[@]}"; do
    local vm; vm=$(modinfo_field "$stage/modules/$m.ko" vermagic)
    case $vm in "$release "*) ;; *) die "$m.ko has vermagic '$vm', not $release" ;; esac
  done
  echo "$version" > "$stage/version"
  touch "$stage/.done"
  rm -rf "$kdir"; mv "$stage" "$kdir"
  rm -rf "$work"; rmdir "$cache/work" 2>/dev/null || true
  say "kernel $release ready: modules $(tr '\n' ' ' < "$kdir/load-order")"
}

if [ -e "$kdir/.done" ]; then
  say "kernel $release: cached"
  [ "$native" = 0 ] || [ -e "$kdir/vmlinux" ] || [ -e "$kdir/vmlinux.none" ] || extract_vmlinux "$kdir/vmlinuz" "$kdir/vmlinux"
else
  build_kernel
fi
ln -sfn "$release" "$cache/kernel/current"

# ---------------------------------------------------------------- busybox
if [ -x "$cache/busybox" ]; then
  say "busybox: cached"
else
  tmp=$cache/work/busybox; rm -rf "$tmp"; mkdir -p "$tmp"
  say "downloading busybox-static"
  bb=busybox-static
  [ "$native" = 1 ] || bb=busybox-static:arm64=$(pkg_version busybox-static)
  (cd "$tmp" && "${apt_dl[@]}" "$bb" >/dev/null) || { apt_update; (cd "$tmp" && "${apt_dl[@]}" "$bb" >/dev/null); } \
    || die "apt-get download busybox-static failed"
  dpkg -x "$tmp"/busybox-static_*.deb "$tmp/root"
  # /usr/bin/busybox in Debian 13 (merged /usr)
  [ -e "$tmp/root/bin/busybox" ] || { mkdir -p "$tmp/root/bin"; mv "$tmp/root/usr/bin/busybox" "$tmp/root/bin/busybox"; }
  if [ "$native" = 1 ]; then
    "$tmp/root/bin/busybox" true || die "busybox from busybox-static does not run"
  else
    LC_ALL=C readelf -h "$tmp/root/bin/busybox" | grep -q AArch64 || die "busybox-static from $TARGET_SUITE is not for AArch64"
  fi
  cp "$tmp/root/bin/busybox" "$cache/busybox.tmp" && mv "$cache/busybox.tmp" "$cache/busybox"
  rm -rf "$tmp"; rmdir "$cache/work" 2>/dev/null || true
fi

# ---------------------------------------------------------------- libgpiod v2
g2=$cache/gpiod2
if [ "$native" = 0 ]; then
  say "libgpiod v2: not needed for $vm_arch (programs link Debian $TARGET_SUITE's libgpiod)"
elif [ -e "$g2/.done" ]; then
  say "libgpiod v2: cached ($(cat "$g2/version"))"
else
  # the host the system already uses for the main archive
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v -- '-security' | head -1 | tr -d ' ' || true)
  mirror=${mirror%/}; mirror=${mirror:-http://deb.debian.org/debian}
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -f "$keyring" ] || die "$keyring is missing (apt-get install debian-archive-keyring)"
  apt2=$cache/apt-$suite2
  mkdir -p "$apt2/lists/partial" "$apt2/cache/archives/partial" "$apt2/debs"
  echo "deb [signed-by=$keyring] $mirror $suite2 main" > "$apt2/sources.list"
  opts=(-o "Dir::Etc::SourceList=$apt2/sources.list" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$apt2/lists" -o "Dir::Cache=$apt2/cache" -o APT::Sandbox::User=root)
  say "apt-get update for $suite2 ($mirror), private lists in $apt2"
  apt-get "${opts[@]}" -q update >/dev/null || die "apt-get update for $suite2 at $mirror failed"
  rm -f "$apt2"/debs/*.deb
  say "downloading libgpiod-dev and libgpiod3 from $suite2"
  (cd "$apt2/debs" && apt-get "${opts[@]}" -q download "libgpiod-dev/$suite2" "libgpiod3/$suite2" >/dev/null) \
    || die "apt-get download libgpiod-dev/$suite2 failed (apt-cache ${opts[*]} policy libgpiod-dev)"
  tmp=$cache/work/gpiod2; rm -rf "$tmp"; mkdir -p "$tmp"
  for d in "$apt2"/debs/*.deb; do dpkg -x "$d" "$tmp"; done
  a=$(find "$tmp" -name libgpiod.a | head -1)
  [ -n "$a" ] && [ -f "$tmp/usr/include/gpiod.h" ] || die "libgpiod.a or gpiod.h missing in the $suite2 packages"
  ver=$(sed -n 's/^Version: *//p' "$(find "$tmp" -name libgpiod.pc | head -1)")
  case $ver in 2.*) ;; *) die "libgpiod from $suite2 is $ver, not v2" ;; esac
  rm -rf "$g2.tmp"; mkdir -p "$g2.tmp/include" "$g2.tmp/lib/pkgconfig"
  cp "$tmp/usr/include/gpiod.h" "$g2.tmp/include/"
  cp "$a" "$g2.tmp/lib/"
  cat > "$g2.tmp/lib/pkgconfig/libgpiod.pc" <<EOF
prefix=$g2
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: libgpiod
Description: libgpiod $ver from Debian $suite2, static only (for the VM tests)
Version: $ver
Libs: -L\${libdir} -lgpiod
Cflags: -I\${includedir}
EOF
  echo "$ver" > "$g2.tmp/version"
  touch "$g2.tmp/.done"
  rm -rf "$g2"; mv "$g2.tmp" "$g2"
  rm -rf "$tmp"; rmdir "$cache/work" 2>/dev/null || true
  say "libgpiod v2: $ver in $g2"
fi

say "ready: $cache (kernel $release)"
