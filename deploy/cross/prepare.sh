#!/usr/bin/env bash
# Prepare the arm64 cross build of tock, cached in .cache/arm64/ (each piece
# is built once per pinned version, see lib.sh):
#
#   sid-root-<swiftlang>/      Debian sid amd64 with Debian's Swift (swiftlang),
#                              the compiler that runs on this machine
#   sysroot-trixie-arm64/      Debian 13 arm64 headers and libraries tock links
#                              against, with a dpkg database for dpkg-shlibdeps
#   sdk-<swiftlang>/tock-aarch64-unknown-linux-gnu.artifactbundle
#                              the Swift SDK: the sysroot (hard links) with
#                              the aarch64 Swift runtime (static too) from
#                              sid's arm64 swiftlang and libswiftlang in its
#                              usr/lib, linked with lld
#
#   deploy/cross/prepare.sh [root|sysroot|sdk]...   (default: all three)
#
# Needs root (mmdebstrap, chroot). Fails with a clear message when Debian no
# longer serves a pinned version.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/cross/lib.sh
. "$here/lib.sh"

say() { printf 'cross-prepare: %s\n' "$*"; }
die() { printf 'cross-prepare: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap and chroot need it)"
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
mkdir -p "$CROSS_CACHE"
secs() { echo $(( $(date +%s) - $1 )); }

# ---------------------------------------------------------------- sid root
prepare_root() {
  if [ -e "$SID_ROOT/.done" ] && [ "$(cat "$SID_ROOT/.done")" = "$ROOT_PACKAGES" ]; then
    say "build root: cached ($SID_ROOT)"; return 0
  fi
  xapt_setup || die "no package lists"
  xapt_require swiftlang:amd64 "$SWIFTLANG_VERSION" "$SWIFT_SUITE" || exit 1
  local t; t=$(date +%s)
  say "mmdebstrap $SWIFT_SUITE amd64 with swiftlang $SWIFTLANG_VERSION (a few minutes, about 3.4 GB)"
  rm -rf "$SID_ROOT.tmp" "$SID_ROOT"
  mmdebstrap --variant=minbase --architectures=amd64 --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="$ROOT_PACKAGES" "$SWIFT_SUITE" "$SID_ROOT.tmp" "$(debian_mirror)" > "$CROSS_CACHE/sid-root.log" 2>&1 \
    || { tail -15 "$CROSS_CACHE/sid-root.log" >&2; die "mmdebstrap of the build root failed (log: $CROSS_CACHE/sid-root.log)"; }
  echo "$ROOT_PACKAGES" > "$SID_ROOT.tmp/.done"
  mv "$SID_ROOT.tmp" "$SID_ROOT"
  say "build root ready in $(secs "$t") s"
}

# The Swift package mirror's git redirections (url.*.insteadOf), so that
# SwiftPM in the root resolves packages as it does on this machine.
root_git_config() {
  local cfg=$SID_ROOT/etc/gitconfig
  : > "$cfg.tmp"
  { git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true
    git config --global --get-regexp '^url\..*\.insteadof$' 2>/dev/null || true; } \
    | while read -r key value; do git config --file "$cfg.tmp" --add "$key" "$value"; done
  mv "$cfg.tmp" "$cfg"
}

# ---------------------------------------------------------------- sysroot
# mmdebstrap --variant=extract unpacks without running anything (no qemu
# needed), so dpkg knows nothing about the result; dpkg-shlibdeps needs a
# database: fake_dpkg_db builds one from the .debs (status, file lists with
# the sysroot's path, shlibs and symbols files).
fake_dpkg_db() {
  local root=$1 db=$1/var/lib/dpkg deb pkg arch name
  rm -rf "$db"; mkdir -p "$db/info" "$db/updates"
  : > "$db/status"
  echo arm64 > "$db/arch"
  echo 1 > "$db/info/format"   # multiarch file names (pkg:arch.list)
  for deb in "$root"/var/cache/apt/archives/*.deb; do
    pkg=$(dpkg-deb -f "$deb" Package); arch=$(dpkg-deb -f "$deb" Architecture)
    { dpkg-deb -f "$deb" | awk 'NR == 1 { print; print "Status: install ok installed"; next } { print }'; echo; } >> "$db/status"
    # dpkg's naming: pkg:arch only for Multi-Arch: same packages
    if [ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ]; then name=$pkg:$arch; else name=$pkg; fi
    dpkg-deb -c "$deb" | awk '{print $6}' | sed "s|^\./|$root/|; s|/\$||" > "$db/info/$name.list"
    local ctl; ctl=$(mktemp -d); dpkg-deb -e "$deb" "$ctl"
    for f in shlibs symbols; do [ -f "$ctl/$f" ] && cp "$ctl/$f" "$db/info/$name.$f"; done
    rm -rf "$ctl"
  done
}

# The fake database names every file by its absolute path (as dpkg-shlibdeps
# looks them up): when the checkout, and so .cache/, has moved since it was
# made, point it at where the sysroot is now.
relocate_dpkg_db() {
  local root=$1 was
  was=$(cat "$root/.path" 2>/dev/null) || was=$(head -1 "$(ls "$root"/var/lib/dpkg/info/*.list | head -1)" | sed 's|/usr/.*||; s|/lib/.*||; s|/etc/.*||')
  [ "$was" = "$root" ] && return 0
  say "sysroot moved from $was: its package database follows"
  sed -i "s#^$was\(/\|\$\)#$root\1#" "$root"/var/lib/dpkg/info/*.list
  echo "$root" > "$root/.path"
}

sysroot_checked=
prepare_sysroot() {
  [ -z "$sysroot_checked" ] || return 0
  sysroot_checked=1
  local key="$TARGET_SUITE $SYSROOT_PACKAGES"
  if [ -e "$SYSROOT/.done" ] && [ "$(cat "$SYSROOT/.done")" = "$key" ]; then
    relocate_dpkg_db "$SYSROOT"
    say "sysroot: cached ($SYSROOT)"; return 0
  fi
  local t; t=$(date +%s)
  say "mmdebstrap --variant=extract $TARGET_SUITE arm64 ($SYSROOT_PACKAGES)"
  rm -rf "$SYSROOT.tmp" "$SYSROOT"
  mmdebstrap --variant=extract --architectures=arm64 --skip=cleanup/apt --include="$SYSROOT_PACKAGES" \
    "$TARGET_SUITE" "$SYSROOT.tmp" "$(debian_mirror)" > "$CROSS_CACHE/sysroot.log" 2>&1 \
    || { tail -15 "$CROSS_CACHE/sysroot.log" >&2; die "mmdebstrap of the sysroot failed (log: $CROSS_CACHE/sysroot.log)"; }
  local r=$SYSROOT.tmp d
  # Merged /usr: the libraries' own paths (/lib/aarch64-linux-gnu/libm.so.6
  # in libm.so's linker script) must resolve.
  for d in lib bin sbin; do [ -e "$r/$d" ] || ln -s "usr/$d" "$r/$d"; done
  # Rewrite the absolute symlinks (libfoo.so -> /lib/...) to relative ones,
  # so they resolve inside the sysroot wherever it is mounted.
  find "$r/usr" -type l -lname '/*' | while read -r l; do
    ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$r$(readlink "$l")")" "$l"
  done
  fake_dpkg_db "$r"
  dpkg-query --admindir="$r/var/lib/dpkg" -W -f '${Package}:${Architecture} ${Version}\n' > "$r/versions"
  rm -f "$r"/var/cache/apt/archives/*.deb
  echo "$key" > "$r/.done"
  # The fake database holds the sysroot's absolute path; it moves with the rename.
  sed -i "s|^$r|$SYSROOT|" "$r"/var/lib/dpkg/info/*.list
  echo "$SYSROOT" > "$r/.path"
  mv "$r" "$SYSROOT"
  say "sysroot ready in $(secs "$t") s: $(grep -E '^(libc6|libgpiod3|libmosquitto1):' "$SYSROOT/versions" | paste -sd' ')"
}

# ---------------------------------------------------------------- SDK bundle
prepare_sdk() {
  # keyed by the Swift version and the sysroot's package versions
  local key; key="$SWIFTLANG_VERSION $(md5sum < "$SYSROOT/versions" | cut -c1-12)"
  if [ -e "$SDK_DIR/.done" ] && [ "$(cat "$SDK_DIR/.done")" = "$key" ]; then
    say "Swift SDK: cached ($SDK_BUNDLE)"; return 0
  fi
  xapt_setup || die "no package lists"
  xapt_require swiftlang:arm64 "$SWIFTLANG_VERSION" "$SWIFT_SUITE" || exit 1
  xapt_require libswiftlang:arm64 "$SWIFTLANG_VERSION" "$SWIFT_SUITE" || exit 1
  local t; t=$(date +%s)
  local work=$SDK_DIR.tmp dl=$CROSS_CACHE/debs
  rm -rf "$work" "$SDK_DIR"; mkdir -p "$dl"
  say "downloading arm64 swiftlang and libswiftlang $SWIFTLANG_VERSION (about 530 MB)"
  (cd "$dl" && xapt-get -q download "swiftlang:arm64=$SWIFTLANG_VERSION" "libswiftlang:arm64=$SWIFTLANG_VERSION" > /dev/null) \
    || die "apt-get download of the arm64 swiftlang $SWIFTLANG_VERSION failed"
  local v=${SWIFTLANG_VERSION//:/%3a}
  local target=$work/tock-$SWIFT_TRIPLE.artifactbundle/$SWIFT_TRIPLE
  mkdir -p "$target"
  # The driver looks for the static runtime (swiftrt.o) under the SDK's
  # usr/lib/swift_static, so the runtime goes into a copy of the sysroot
  # (hard links: no space, and the cached sysroot stays as it is).
  cp -al "$SYSROOT" "$target/sysroot"
  local res=$work/extract
  mkdir -p "$res"
  say "extracting lib/swift, lib/swift_static and lib/clang for aarch64"
  for deb in "$dl/swiftlang_${v}_arm64.deb" "$dl/libswiftlang_${v}_arm64.deb"; do
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$res" --wildcards \
      './usr/libexec/swift/lib/swift/*' './usr/libexec/swift/lib/swift_static/*' './usr/libexec/swift/lib/clang/*' 2>/dev/null || true
  done
  mv "$res"/usr/libexec/swift/lib/swift "$res"/usr/libexec/swift/lib/swift_static "$res"/usr/libexec/swift/lib/clang "$target/sysroot/usr/lib/"
  rm -rf "$res"
  local lib=$target/sysroot/usr/lib
  [ -f "$lib/swift_static/linux/libswiftCore.a" ] || die "no aarch64 libswiftCore.a in swiftlang $SWIFTLANG_VERSION (arm64)"
  [ -f "$lib/swift_static/linux/static-stdlib-args.lnk" ] || die "no static-stdlib-args.lnk in swiftlang $SWIFTLANG_VERSION (arm64)"
  [ -f "$lib/swift_static/linux/aarch64/swiftrt.o" ] || die "no aarch64 swiftrt.o in swiftlang $SWIFTLANG_VERSION (arm64)"
  cat > "$target/swift-sdk.json" <<EOF
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "$SWIFT_TRIPLE": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "sysroot/usr/lib/swift",
      "swiftStaticResourcesPath": "sysroot/usr/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
EOF
  # lld from the build root's swiftlang: GNU ld for aarch64 is not there.
  cat > "$target/toolset.json" <<EOF
{
  "schemaVersion": "1.0",
  "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] },
  "linker": { "path": "/usr/libexec/swift/bin/ld.lld" }
}
EOF
  cat > "$work/tock-$SWIFT_TRIPLE.artifactbundle/info.json" <<EOF
{
  "schemaVersion": "1.0",
  "artifacts": {
    "$SWIFT_TRIPLE": {
      "type": "swiftSDK",
      "version": "$SWIFTLANG_VERSION",
      "variants": [{ "path": "$SWIFT_TRIPLE" }]
    }
  }
}
EOF
  echo "$key" > "$work/.done"
  mv "$work" "$SDK_DIR"
  rm -f "$dl"/*.deb
  say "Swift SDK ready in $(secs "$t") s"
}

parts=("$@"); [ ${#parts[@]} -gt 0 ] || parts=(root sysroot sdk)
for p in "${parts[@]}"; do
  case $p in
    root) prepare_root; root_git_config ;;
    sysroot) prepare_sysroot ;;
    sdk) prepare_sysroot; prepare_sdk ;;
    *) die "unknown part '$p' (root, sysroot, sdk)" ;;
  esac
done
