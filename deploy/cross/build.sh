#!/usr/bin/env bash
# Cross-build tock for arm64 (aarch64) with Debian's Swift, in the build root
# prepared by deploy/cross/prepare.sh: a release build linked against
# Debian 13's libraries, the Swift runtime linked statically (nothing of
# Swift is needed on the board).
#
#   deploy/cross/build.sh        writes .build-arm64/release/tock
#
# Needs root (chroot). Runs prepare.sh first (cached after the first time).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/cross/lib.sh
. "$here/lib.sh"
die() { printf 'cross-build: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (chroot needs it)"

bash "$here/prepare.sh"

scratch=.build-arm64
# SwiftPM does not compile again what changed flags would have compiled
# differently (deploy/release-build.sh): the build starts afresh whenever
# this script, which holds them, changed since the last one.
stamp=$repo/$scratch/cross-build-script
script_sum=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
if [ -d "$repo/$scratch" ] && [ "$(cat "$stamp" 2>/dev/null)" != "$script_sum" ]; then
  echo "cross-build: deploy/cross/build.sh changed since $scratch was built: building it afresh"
  rm -rf "${repo:?}/$scratch"
fi
inside() { root_path "$1"; }
sysroot=$(inside "$SYSROOT")
t=$(date +%s)
echo "cross-build: swift build for $SWIFT_TRIPLE (swiftlang $SWIFTLANG_VERSION, sysroot $TARGET_SUITE)"
# pkg-config (libmosquitto) reads the sysroot's .pc files, with their paths
# moved into the sysroot. Linked as the Makefile's RELEASE_LINK says why:
# packed relative relocations, no exported names, and the functions the box
# runs placed together (deploy/order/tock.order; the names are the same on
# both architectures).
in_root /usr/bin/env \
  PKG_CONFIG_SYSROOT_DIR="$sysroot" PKG_CONFIG_PATH="$sysroot/usr/lib/$TARGET_TRIPLE/pkgconfig" \
  PKG_CONFIG_LIBDIR="$sysroot/usr/lib/$TARGET_TRIPLE/pkgconfig:$sysroot/usr/share/pkgconfig" \
  sh -c 'cd /src && swift build -c release --static-swift-stdlib --product tock --scratch-path "$1" \
           --swift-sdks-path "$2" --swift-sdk "$3" -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
           -Xswiftc -Xfrontend -Xswiftc -function-sections \
           -Xlinker --symbol-ordering-file=/src/deploy/order/tock.order -Xlinker --no-warn-symbol-ordering' \
  sh "$scratch" "$(inside "$SDK_DIR")" "$SWIFT_TRIPLE" \
  || die "swift build for $SWIFT_TRIPLE failed"
bin=$repo/$scratch/release/tock
[ -x "$bin" ] || die "no $bin after the build"
printf '%s' "$script_sum" > "$stamp"
# The web page's server is tock run by that name: a link beside it, which
# deploy/build-deb.sh finds (and packages as a link).
ln -sf tock "$repo/$scratch/release/tock-web"
machine=$(LC_ALL=C readelf -h "$bin" | sed -n 's/^ *Machine: *//p')
case $machine in *AArch64*) ;; *) die "$bin is built for '$machine', not AArch64" ;; esac
echo "cross-build: $bin ($machine) in $(( $(date +%s) - t )) s"
