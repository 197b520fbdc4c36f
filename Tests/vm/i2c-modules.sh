#!/usr/bin/env bash
# i2c-dev.ko and i2c-stub.ko for the VM's kernel, from Debian's image package
# (prepare.sh builds only gpio-sim and carries configfs), into
# $VM_CACHE/kernel/current/extra/ for the scenarios that declare them with
# "# vm-file:" (tock-light-rtc.sh). Once; about 107 MB downloaded. amd64 only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=Tests/vm/arch.sh
. "$here/arch.sh"
cache=${VM_CACHE:-$vm_cache_default}
dest=$cache/kernel/current/extra
[ -s "$dest/i2c-dev.ko" ] && [ -s "$dest/i2c-stub.ko" ] && exit 0
[ "$vm_arch" = amd64 ] || { echo "i2c-modules: amd64 only (VM_ARCH=$vm_arch)" >&2; exit 0; }
release=$(basename "$(readlink -f "$cache/kernel/current")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "i2c-modules: downloading linux-image-$release for i2c-dev.ko and i2c-stub.ko"
(cd "$work" && apt-get -q -o APT::Sandbox::User=root download "linux-image-$release" > /dev/null)
dpkg -x "$work"/linux-image-*.deb "$work/root"
mkdir -p "$dest"
for m in i2c-dev i2c-stub; do
  src=$(find "$work/root" -name "$m.ko*" | head -1)
  [ -n "$src" ] || { echo "i2c-modules: $m.ko is not in linux-image-$release" >&2; exit 1; }
  case $src in
    *.xz) xz -dc "$src" ;;
    *.zst) zstd -dc "$src" ;;
    *) cat "$src" ;;
  esac > "$dest/$m.ko"
done
