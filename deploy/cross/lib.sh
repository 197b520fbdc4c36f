# shellcheck shell=bash
# Shared by the arm64 cross build (deploy/cross/) and the arm64 VM tests:
# the pinned versions, the cache layout, a private apt for Debian suites and
# architectures this machine does not use, and a command runner for the
# build root. Sourced, not run.

# ---------------------------------------------------------------- pins
# Debian's Swift: the compiler (amd64) and the aarch64 target files (arm64)
# come from the same swiftlang/libswiftlang version in sid.
SWIFTLANG_VERSION=${SWIFTLANG_VERSION:-6.2.3-1+b1}
SWIFT_SUITE=sid
# The target system: Debian 13, as Raspberry Pi OS trixie.
TARGET_SUITE=${TARGET_SUITE:-trixie}
TARGET_ARCH=arm64
TARGET_TRIPLE=aarch64-linux-gnu
SWIFT_TRIPLE=aarch64-unknown-linux-gnu
# The build root: the compiler, git and pkg-config for SwiftPM, the host's
# C/C++ headers (SwiftPM compiles Package.swift for the build machine), and
# Debian's aarch64 cross gcc 14 (trixie's kernel compiler) for the gpio-sim
# module of the arm64 VM tests.
ROOT_PACKAGES="swiftlang=$SWIFTLANG_VERSION,libswiftlang=$SWIFTLANG_VERSION,git,pkg-config,ca-certificates,libc6-dev,libstdc++-15-dev,gcc-14-aarch64-linux-gnu,make"
# The sysroot: what tock links against on the board.
# zlib1g-dev: tock-web gzips its page.
SYSROOT_PACKAGES="libc6-dev,libgcc-14-dev,libstdc++-14-dev,libgpiod-dev,libyaml-dev,libmosquitto-dev,zlib1g-dev,pkgconf"

# ---------------------------------------------------------------- layout
cross_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${repo:-$(cd "$cross_lib_dir/../.." && pwd)}
# Resolved: .cache may be a link to a cache outside the clone (TOCK_CACHE).
CACHE_ROOT=$(realpath -m "$repo/.cache")
CROSS_CACHE=$(realpath -m "${CROSS_CACHE:-$repo/.cache/arm64}")
SID_ROOT=$CROSS_CACHE/sid-root-$SWIFTLANG_VERSION
SYSROOT=$CROSS_CACHE/sysroot-$TARGET_SUITE-$TARGET_ARCH
SDK_DIR=$CROSS_CACHE/sdk-$SWIFTLANG_VERSION
SDK_BUNDLE=$SDK_DIR/tock-$SWIFT_TRIPLE.artifactbundle

# ---------------------------------------------------------------- apt
# The Debian mirror the system already uses, else deb.debian.org.
debian_mirror() {
  local m
  m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v -- '-security' | head -1 | tr -d ' ' || true)
  m=${m%/}
  echo "${m:-http://deb.debian.org/debian}"
}

# xapt_setup: private apt lists for sid and the target suite, amd64 and
# arm64, in $CROSS_CACHE/apt (this machine's own apt is not touched).
# Then `xapt-get ...` and `xapt-cache ...` use them. sid's Release file can
# count as expired on an archive snapshot, hence Check-Valid-Until false.
xapt_opts=()
xapt_setup() {
  local dir=$CROSS_CACHE/apt keyring=/usr/share/keyrings/debian-archive-keyring.gpg mirror
  [ ${#xapt_opts[@]} -gt 0 ] && return 0
  [ -f "$keyring" ] || { echo "cross: $keyring is missing (apt-get install debian-archive-keyring)" >&2; return 1; }
  mirror=$(debian_mirror)
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  {
    echo "deb [signed-by=$keyring arch=amd64,arm64] $mirror $SWIFT_SUITE main"
    echo "deb [signed-by=$keyring arch=amd64,arm64] $mirror $TARGET_SUITE main"
  } > "$dir/sources.list"
  : > "$dir/status"
  xapt_opts=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o "Dir::State::status=$dir/status"
             -o APT::Architectures::=amd64 -o APT::Architectures::=arm64
             -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root)
  if [ -z "$(find "$dir/lists" -name '*Packages*' -mmin -360 2>/dev/null | head -1)" ]; then
    echo "cross: apt-get update for $SWIFT_SUITE and $TARGET_SUITE (amd64, arm64) from $mirror" >&2
    apt-get "${xapt_opts[@]}" -q update > "$dir/update.log" 2>&1 \
      || { tail -5 "$dir/update.log" >&2; echo "cross: apt-get update failed (log: $dir/update.log)" >&2; return 1; }
  fi
}
xapt-get() { apt-get "${xapt_opts[@]}" "$@"; }
xapt-cache() { apt-cache "${xapt_opts[@]}" "$@"; }

# xapt_require PKG:ARCH VERSION SUITE: fail with a clear message unless the
# archive still serves that exact version.
xapt_require() {
  local pkg=$1 version=$2 suite=$3 served
  served=$(xapt-cache madison "$pkg" 2>/dev/null | awk -F' [|] ' -v s="$suite/" '$3 ~ s {print $2}' | tr -d ' ' | paste -sd' ')
  case " $served " in
    *" $version "*) return 0 ;;
  esac
  echo "cross: Debian $suite no longer serves $pkg $version (it serves: ${served:-nothing})." >&2
  echo "cross: the build is pinned to it; update SWIFTLANG_VERSION in deploy/cross/lib.sh (or set it) to a served version and check the build and tests with it." >&2
  return 1
}

# ---------------------------------------------------------------- the build root
# in_root COMMAND...: run COMMAND in the sid build root, with the repository
# at /src, the cross cache at /cache, the rest of the caches at /caches
# (the other VM tests' work) and the Swift package mirror at
# /opt/swift-packages (when this machine has one), in a private mount
# namespace (the mounts vanish with it).
in_root() {
  [ -e "$SID_ROOT/.done" ] || { echo "cross: the build root is not prepared (deploy/cross/prepare.sh)" >&2; return 1; }
  unshare -m --propagation private bash -c '
    set -e
    r=$1 src=$2 cache=$3 caches=$4; shift 4
    mount --rbind /dev "$r/dev"
    mount -t proc proc "$r/proc"
    mount -t tmpfs tmpfs "$r/tmp"
    mkdir -p "$r/src" "$r/cache" "$r/caches" "$r/opt/swift-packages"
    mount --bind "$src" "$r/src"
    mount --bind "$cache" "$r/cache"
    [ -d "$caches" ] && mount --bind "$caches" "$r/caches"
    [ -d /opt/swift-packages ] && mount --bind /opt/swift-packages "$r/opt/swift-packages"
    exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin "$@"
  ' in_root "$SID_ROOT" "$repo" "$CROSS_CACHE" "$CACHE_ROOT" "$@"
}

# root_path HOSTPATH: the same path as the build root sees it (only paths
# under the repository or the caches are mounted there).
root_path() {
  local p; p=$(realpath -m "$1")
  case $p in
    "$CROSS_CACHE"|"$CROSS_CACHE"/*) echo "/cache${p#"$CROSS_CACHE"}" ;;
    "$CACHE_ROOT"|"$CACHE_ROOT"/*) echo "/caches${p#"$CACHE_ROOT"}" ;;
    "$repo"|"$repo"/*) echo "/src${p#"$repo"}" ;;
    *) return 1 ;;
  esac
}
