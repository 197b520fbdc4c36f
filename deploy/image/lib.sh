# shellcheck shell=bash
# Shared by the Raspberry Pi image build (deploy/image/) and its tests
# (Tests/image/): pinned suite, package set, cache layout. Sourced, not run.

image_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${repo:-$(cd "$image_lib_dir/../.." && pwd)}
# shellcheck source=deploy/cross/lib.sh
. "$repo/deploy/cross/lib.sh"

IMAGE_SUITE=trixie
IMAGE_ARCH=arm64
# What a timer needs on a Pi and nothing more: systemd with networkd,
# resolved and timesyncd; wpa_supplicant and the Broadcom Wi-Fi firmware;
# avahi (the box's .local name and the page's announcement); ssh; Debian's
# arm64 kernel with its initramfs and the Pi's boot firmware; the tools that
# check and grow the data partition (e2fsprogs, dosfstools, fdisk); tzdata
# for the time zone; netcat-openbsd to reach tock's control socket from the
# setup unit; wireless-regdb for the Wi-Fi country; libmosquitto1, which
# the tock package recommends (the MQTT link): with every dependency of the
# package in the base, the image step installs it with dpkg alone.
IMAGE_PACKAGES="systemd,systemd-sysv,udev,dbus,kmod,iproute2,systemd-resolved,systemd-timesyncd,\
wpasupplicant,wireless-regdb,avahi-daemon,openssh-server,linux-image-arm64,initramfs-tools,zstd,\
raspi-firmware,firmware-brcm80211,e2fsprogs,dosfstools,fdisk,tzdata,netcat-openbsd,ca-certificates,\
libgpiod3,libyaml-0-2,libmosquitto1,adduser,gpgv,apt"
# Documentation, manuals and translations are not installed (a box has no
# reader for them); copyright files stay.
IMAGE_DPKG_EXCLUDES=(path-exclude=/usr/share/man/* path-exclude=/usr/share/doc/* path-include=/usr/share/doc/*/copyright
  path-exclude=/usr/share/locale/* path-include=/usr/share/locale/locale.alias path-exclude=/usr/share/info/*)

IMAGE_CACHE=$repo/.cache/image
# The base root is keyed by the suite, the package set and the recipe
# (base.sh and the files it puts in first): a change builds a new one;
# IMAGE_REFRESH=1 rebuilds it from today's archive.
image_base_key() {
  { printf '%s %s %s %s\n' "$IMAGE_SUITE" "$IMAGE_ARCH" "$IMAGE_PACKAGES" "${IMAGE_DPKG_EXCLUDES[*]}"
    cat "$image_lib_dir/base.sh" "$image_lib_dir/rootfs/initramfs-hook" "$image_lib_dir/rootfs/etc/sshd-tock.conf"; } | md5sum | cut -c1-12
}
IMAGE_BASE=$IMAGE_CACHE/base-$IMAGE_SUITE-$IMAGE_ARCH-$(image_base_key)

tock_version() {
  if [ -f "$repo/VERSION" ]; then tr -d ' \t\n' < "$repo/VERSION"
  elif [ -f "$repo/deploy/VERSION" ]; then tr -d ' \t\n' < "$repo/deploy/VERSION"
  else echo 0.1.0; fi
}
