#!/usr/bin/env bash
# make image-pi4: the image of make image (or make image-smoke) under
# QEMU's raspi4b (Tests/image/pi4_test.py), QEMU from a Debian 13 root
# cached under .cache (Tests/image/qemu-root.sh). Logs: .cache/image/pi4/
# (IMAGE_PI4_WORK: another directory).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=deploy/image/lib.sh
. "$repo/deploy/image/lib.sh"
img=$IMAGE_CACHE/tock-$(tock_version)-raspi-arm64.img
[ -f "$img" ] || { echo "image-pi4: no $img (make image or make image-smoke)" >&2; exit 1; }
root=$(bash "$here/qemu-root.sh" "$CACHE_ROOT")
work=$(realpath -m "${IMAGE_PI4_WORK:-$IMAGE_CACHE/pi4}")
rm -rf "$work"; mkdir -p "$work"
exec python3 "$here/pi4_test.py" --image "$img" --work "$work" --qemu-root "$root" "$@"
