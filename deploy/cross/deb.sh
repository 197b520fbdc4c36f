#!/usr/bin/env bash
# The arm64 Debian package, cross-built on this machine (make deb ARCH=arm64):
# deploy/cross/build.sh, then deploy/build-deb.sh against the Debian 13
# sysroot (Depends computed from its libraries).
#
#   deploy/cross/deb.sh OUTDIR     writes OUTDIR/tock_<version>_arm64.deb
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/cross/lib.sh
. "$here/lib.sh"
outdir=${1:?usage: deploy/cross/deb.sh OUTDIR}
bash "$here/build.sh"
bash "$repo/deploy/build-deb.sh" --arch "$TARGET_ARCH" --sysroot "$SYSROOT" "$repo/.build-arm64/release/tock" "$outdir"
