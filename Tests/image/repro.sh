#!/usr/bin/env bash
# make image-repro: the image built twice from the same inputs (the cached
# base root, one .deb, this tree, one SOURCE_DATE_EPOCH), then the two
# compared byte for byte (compare_images.py names what differs).
#
#   Tests/image/repro.sh DEB
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=deploy/image/lib.sh
. "$repo/deploy/image/lib.sh"
deb=${1:?usage: repro.sh DEB}
img=$IMAGE_CACHE/tock-$(tock_version)-raspi-arm64.img
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct)}
IMAGE_COMPRESS=0 bash "$repo/deploy/image/build.sh" "$deb" "$repo/.build/image"
cp --sparse=always "$img" "$IMAGE_CACHE/repro-first.img"
IMAGE_COMPRESS=0 bash "$repo/deploy/image/build.sh" "$deb" "$repo/.build/image"
python3 "$here/compare_images.py" "$IMAGE_CACHE/repro-first.img" "$img"
