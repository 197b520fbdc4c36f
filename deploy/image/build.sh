#!/usr/bin/env bash
# The Raspberry Pi image (make image): Debian 13 arm64 with the arm64 tock
# package, a FAT boot partition with the Pi's firmware, Debian's kernel and
# the two files a person edits, a read-only ext4 root and an ext4 data
# partition that grows to fill the card (docs/raspberry-pi.md).
#
#   deploy/image/build.sh DEB OUTDIR
#       writes OUTDIR/tock-<version>-raspi-arm64.img.xz (and .img.bmap when
#       bmaptool is installed); the uncompressed image stays in
#       .cache/image/tock-<version>-raspi-arm64.img for the tests
#
# Same inputs (the cached base, the .deb, this tree at one commit) give the
# same bytes: every time stamp is SOURCE_DATE_EPOCH (the commit's time),
# the disk id, file system UUIDs, hash seeds and volume id are fixed, files
# are added in sorted order (docs/raspberry-pi.md, "Reproducible").
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/image/lib.sh
. "$here/lib.sh"
say() { printf 'image: %4d s: %s\n' $(( $(date +%s) - ${t0:-$(date +%s)} )) "$*" >&2; }
die() { printf 'image: ERROR: %s\n' "$*" >&2; exit 1; }
deb=$(realpath "${1:?usage: build.sh DEB OUTDIR}")
outdir=${2:?usage: build.sh DEB OUTDIR}
[ "$(id -u)" = 0 ] || die "run as root (chroot, mkfs -d)"
[ -f "$deb" ] || die "no package $deb (make deb ARCH=arm64)"
version=$(tock_version)
t0=$(date +%s)

# "tock" in ASCII: the MBR disk id, so the partitions are PARTUUID=746f636b-01..03.
DISKID=746f636b
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}
BOOT_MIB=256 DATA_MIB=64

base=$(bash "$here/base.sh")
work=$IMAGE_CACHE/work
rm -rf "$work"; mkdir -p "$work"
root=$work/root
say "copying the base ($base)"
cp -a "$base" "$root"
rm -f "$root/.done" "$root/.versions"

# in_chroot CMD...: run in the image's root with /proc, /sys and /dev, in a
# private mount namespace (arm64 programs run through qemu-user).
in_chroot() {
  unshare -m --propagation private bash -c '
    r=$1; shift
    mount -t proc proc "$r/proc"; mount --rbind /sys "$r/sys"; mount --rbind /dev "$r/dev"
    mount -t tmpfs tmpfs "$r/tmp"; mount -t tmpfs tmpfs "$r/run"
    exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
      PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"' in_chroot "$root" "$@"
}

# ---------------------------------------------------------------- tock
# Every dependency and recommendation of the package is in the base
# (IMAGE_PACKAGES): dpkg installs it without apt, so the build reads no
# package lists (apt's update and resolver under qemu-user took 7 of this
# step's 8 minutes). A dependency the base lacks fails here by name.
say "installing $(basename "$deb")"
missing=$(dpkg-deb -f "$deb" Depends Recommends | sed 's/^[A-Za-z]*: //' | tr ',' '\n' \
  | sed -E 's/^[[:space:]]+//; s/[[:space:](|].*//' | sort -u | grep -v '^$' | while read -r p; do
    grep -qx "$p" <(cut -d' ' -f1 "$base/.versions") || echo "$p"; done)
[ -z "$missing" ] || die "the base lacks what $(basename "$deb") needs: $missing (add it to IMAGE_PACKAGES in deploy/image/lib.sh)"
mkdir -p "$root/var/tmp/tock-deb"
cp "$deb" "$root/var/tmp/tock-deb/"
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"; chmod 755 "$root/usr/sbin/policy-rc.d"
in_chroot sh -c "dpkg -i /var/tmp/tock-deb/$(basename "$deb") >/var/tmp/tock-deb/dpkg.log 2>&1" \
  || { tail -20 "$root/var/tmp/tock-deb/dpkg.log" >&2; die "installing the package failed"; }
in_chroot dpkg-query -W -f '${Package} ${Version}\n' | LC_ALL=C sort > "$work/packages.txt"
rm -rf "$root/var/tmp/tock-deb" "$root/usr/sbin/policy-rc.d" "$root"/etc/apt/sources.list.d/*
cat > "$root/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: $IMAGE_SUITE $IMAGE_SUITE-updates
Components: main non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.pgp

Types: deb
URIs: http://security.debian.org/debian-security
Suites: $IMAGE_SUITE-security
Components: main non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.pgp
SRC
rm -f "$root/etc/apt/sources.list"

# ---------------------------------------------------------------- the appliance's files
say "the appliance's files"
R=$here/rootfs
sed "s/@DISKID@/$DISKID/g" "$R/fstab.in" > "$root/etc/fstab"
install -d "$root/data" "$root/usr/lib/tock-image" "$root/etc/systemd/system/tock.service.d"
install -m 0755 "$R/data-grow" "$R/root-ro" "$R/boot-rw" "$R/clock-from-data" "$R/tock-config" "$root/usr/lib/tock-image/"
for u in tock-data-grow tock-setup tock-setup-notice tock-clock tock-splash; do
  sed "s/@DISKID@/$DISKID/g" "$R/systemd/$u.service" > "$root/etc/systemd/system/$u.service"
done
install -m 0644 "$R/systemd/tock-image.conf" "$root/etc/systemd/system/tock.service.d/tock-image.conf"
# The setup hotspot (docs/raspberry-pi.md, "No network: the setup hotspot").
install -m 0644 "$R/systemd/tock-hotspot.service" "$R/systemd/tock-hotspot-page.service" "$root/etc/systemd/system/"
install -m 0644 "$R"/network/*.network "$root/etc/systemd/network/"
install -m 0644 "$R/etc/sshd-tock.conf" "$root/etc/ssh/sshd_config.d/tock.conf"
install -m 0644 "$R/etc/apt-tock-image.conf" "$root/etc/apt/apt.conf.d/80tock-image"
install -d "$root/etc/systemd/journald.conf.d" "$root/etc/systemd/resolved.conf.d" "$root/etc/systemd/system.conf.d"
install -m 0644 "$R/etc/system-tock.conf" "$root/etc/systemd/system.conf.d/tock.conf"
install -m 0644 "$R/etc/journald-tock.conf" "$root/etc/systemd/journald.conf.d/tock.conf"
install -m 0644 "$R/etc/resolved-tock.conf" "$root/etc/systemd/resolved.conf.d/tock.conf"
# The project's archive, for apt upgrade (make repo; docs/updates.md).
# IMAGE_REPO_KEYRING: another key for it, only for an image that a test
# upgrades from a repository it signs itself (make image-smoke).
keyring=${IMAGE_REPO_KEYRING:-$repo/deploy/repo/tock-archive-keyring.pgp}
[ "$keyring" = "$repo/deploy/repo/tock-archive-keyring.pgp" ] \
  || say "the archive key trusted is $keyring, not the project's: a test image"
install -m 0644 "$keyring" "$root/usr/share/keyrings/tock-archive-keyring.pgp"
# IMAGE_REPO_URL (make image IMAGE_REPO_URL=https://...; TOCK_REPO_URL is
# its older name): the repository's address. Without it the entry points
# at the placeholder https://tock.invalid/debian, and the box says in
# `tock status` and on its page that it has no repository (docs/updates.md).
repo_url=${IMAGE_REPO_URL:-${TOCK_REPO_URL:-https://tock.invalid/debian}}
[[ "$repo_url" =~ ^https?://[^[:space:]\"]+$ ]] || die "IMAGE_REPO_URL '$repo_url': an http:// or https:// address without spaces (the top of the repository make repo builds)"
case $repo_url in *tock.invalid*) say "no apt repository for updates (IMAGE_REPO_URL not set): the box will say so" ;; esac
cat > "$root/etc/apt/sources.list.d/tock.sources" <<SRC
Types: deb
URIs: $repo_url
Suites: stable
Components: main
Signed-By: /usr/share/keyrings/tock-archive-keyring.pgp
SRC
# Mount points of the data partition's directories (fstab binds them).
install -d "$root/var/lib/tock" "$root/var/lib/tock-web" "$root/var/lib/systemd/timesync"
# State directories of systemd's own services that must exist on a
# read-only root (StateDirectory= cannot make them there): logind's.
install -d -m 0755 "$root/var/lib/systemd/linger"
# What `tock setup apply` makes at each boot in /run.
ln -sfn /run/tock-image/localtime "$root/etc/localtime"
echo Etc/UTC > "$root/etc/timezone"
ln -sfn /run/tock-image/wpa_supplicant-wlan0.conf "$root/etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
echo tock > "$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\ttock\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
ln -sfn ../run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"
# Units: enabled here as systemctl enable would (no systemd runs in the build).
W=$root/etc/systemd/system
mkdir -p "$W/sysinit.target.wants" "$W/multi-user.target.wants" "$W/network-online.target.wants"
ln -sfn ../tock-setup.service "$W/sysinit.target.wants/tock-setup.service"
ln -sfn ../tock-clock.service "$W/sysinit.target.wants/tock-clock.service"
ln -sfn ../tock-splash.service "$W/sysinit.target.wants/tock-splash.service"
mkdir -p "$W/local-fs.target.wants"
ln -sfn ../tock-data-grow.service "$W/local-fs.target.wants/tock-data-grow.service"
ln -sfn ../tock-setup-notice.service "$W/multi-user.target.wants/tock-setup-notice.service"
ln -sfn ../tock-hotspot.service "$W/multi-user.target.wants/tock-hotspot.service"
ln -sfn /lib/systemd/system/systemd-networkd.service "$W/multi-user.target.wants/systemd-networkd.service"
# wpa_supplicant for wlan0 starts when wlan0 appears, not at multi-user: a
# unit that waits for the device would hold network.target (and so ssh and
# tock-web) until the device timeout on a box whose Wi-Fi never comes up
# (no firmware answer, a board without radio, QEMU). The D-Bus variant
# (wpa_supplicant.service, for NetworkManager) is not used.
mkdir -p "$W/sys-subsystem-net-devices-wlan0.device.wants"
ln -sfn /lib/systemd/system/wpa_supplicant@.service "$W/sys-subsystem-net-devices-wlan0.device.wants/wpa_supplicant@wlan0.service"
rm -f "$W/multi-user.target.wants/wpa_supplicant.service"
in_chroot systemctl enable systemd-networkd.service systemd-resolved.service systemd-timesyncd.service >/dev/null 2>&1 || true
# A read-only root: no random seed file to refresh (the kernel seeds itself),
# no first-boot wizard.
for u in systemd-networkd-persistent-storage.service systemd-random-seed.service systemd-firstboot.service systemd-pstore.service apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service dpkg-db-backup.timer; do
  ln -sfn /dev/null "$W/$u"
done
# /usr is not newer than /etc and /var: the units that rebuild caches after
# an update of /usr (ConditionNeedsUpdate=) stay quiet on a read-only root.
touch "$root/etc/.updated" "$root/var/.updated"
# Made per box at the first boot, not shared by every card: the machine id
# (empty: systemd makes one at each boot in RAM), the SSH host keys (on /data).
: > "$root/etc/machine-id"
rm -f "$root"/etc/ssh/ssh_host_*
# D-Bus reads the machine id here (systemd-tmpfiles would make this link at
# boot, which a read-only root refuses).
ln -sfn /etc/machine-id "$root/var/lib/dbus/machine-id"
# The locale of every login and service (/etc/default/locale points here).
echo LANG=C.UTF-8 > "$root/etc/locale.conf"
# A Pi has no clock that runs while it is off: until NTP answers (or
# timesyncd's saved time on /data is read), systemd sets the clock to this
# file's time stamp, the image's build time, rather than to its own build date.
: > "$root/usr/lib/clock-epoch"
# What the build leaves behind.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old \
  "$root"/var/log/* "$root"/tmp/* "$root"/var/tmp/* "$root"/root/.bash_history "$root"/etc/*- "$root"/var/cache/ldconfig/aux-cache
rm -f "$root/etc/ssh/sshd_config.d/.placeholder" 2>/dev/null || true

# ---------------------------------------------------------------- boot partition
say "the boot partition's files (raspi-firmware's hook)"
boot=$work/boot
mkdir -p "$boot"
# raspi-firmware's kernel hook fills /boot/firmware with the firmware, the
# kernel, the initramfs, the device trees, config.txt and cmdline.txt, and
# does again at every kernel upgrade: its settings are the image's, so an
# upgrade writes the same command line (the root by PARTUUID, the serial
# console on the mini UART as ttyS1). fstab makes the root read-only.
cat >> "$root/etc/default/raspi-firmware" <<CFG

# Tock image (deploy/image/build.sh)
ROOTPART=PARTUUID=$DISKID-02
CONSOLES="tty0 ttyS1,115200"
CFG
# The root is mounted read-only from the start: the hook writes "rw" before
# this file's words and the last of the two counts (for the kernel, the
# initramfs and systemd alike). A root mounted read-write, even only until
# systemd-remount-fs, is written at every boot (the superblock's mount count,
# the journal, /etc/machine-id, which systemd then writes instead of keeping
# it in /run), and a power cut in those seconds could hit it.
echo ro > "$root/etc/default/raspi-extra-cmdline"
# The buses tock's configuration needs: `tock setup apply` writes them to
# tock-buses.txt on the boot partition, and the config.txt that the hook
# writes now and at every upgrade includes that file (docs/raspberry-pi.md,
# "Buses"; config.txt itself says "Do not modify"). firmware-extra.txt is
# the owner's, for what no configuration key names (an RTC's overlay): no
# upgrade and no setup writes it.
printf 'include tock-buses.txt\ninclude firmware-extra.txt\n' > "$root/etc/default/raspi-firmware-custom"
kver=$(ls "$root/lib/modules" | sort -V | tail -1)
in_chroot env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware "$kver" "/boot/vmlinuz-$kver" >/dev/null
cp -a "$root/boot/firmware/." "$boot/"
find "$root/boot/firmware" -mindepth 1 -delete
install -d "$boot/tock"
install -m 0644 "$R/tock-setup.txt" "$boot/tock-setup.txt"
printf '# Raspberry Pi firmware lines of your own (config.txt includes this file;\n# no upgrade rewrites it), e.g. for an RTC: dtoverlay=i2c-rtc,ds3231\n# Applies from the next power-on. Buses for tock/config.yaml: not needed here.\n' > "$boot/firmware-extra.txt"
# The package's configuration with comments true on the image (card-config.py).
python3 "$here/card-config.py" "$repo/deploy/config.yaml" > "$boot/tock/config.yaml" || die "the card's config.yaml (deploy/image/card-config.py)"
for f in "vmlinuz-$kver" "initrd.img-$kver" config.txt cmdline.txt; do [ -f "$boot/$f" ] || die "raspi-firmware left no $f in /boot/firmware"; done
grep -q "root=PARTUUID=$DISKID-02" "$boot/cmdline.txt" || die "cmdline.txt does not name the root by PARTUUID: $(cat "$boot/cmdline.txt")"
grep -qx "include firmware-extra.txt" "$boot/config.txt" && grep -qx "include tock-buses.txt" "$boot/config.txt" || die "config.txt does not include tock-buses.txt: $(cat "$boot/config.txt")"
grep -Eq ' ro[[:space:]]*$' "$boot/cmdline.txt" || die "cmdline.txt does not end in ro: $(cat "$boot/cmdline.txt")"

# ---------------------------------------------------------------- file systems
# Every time stamp is SOURCE_DATE_EPOCH.
find "$root" "$boot" -xdev -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch -h -d "@$SOURCE_DATE_EPOCH"
export E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH
root_kib=$(du -sk --apparent-size "$root" | cut -f1)
# Room for an upgrade of tock and of the kernel (a new kernel and its
# modules sit beside the old until the old package is removed).
ROOT_MIB=$(( (root_kib * 13 / 10 / 1024 + 160 + 63) / 64 * 64 ))
say "root: $((root_kib / 1024)) MiB of files in a $ROOT_MIB MiB partition"
# mkfs.ext4 -d copies each file's ctime and atime from the tree it reads:
# the ctime is when this build copied the file and the atime when it last
# read it, neither of which touch can set. Every inode in use gets
# SOURCE_DATE_EPOCH for both afterwards (debugfs; the inode bitmap from
# dumpe2fs says which are in use).
ext4_fix_times() {
  local img=$1 cmds=$work/debugfs-times
  dumpe2fs "$img" 2>/dev/null | awk -v t="@$SOURCE_DATE_EPOCH" '
    /^Inodes per group:/ { ipg = $4 }
    /^Group [0-9]+:/ { g = $2 + 0 }
    /^  Free inodes:/ {
      first = g * ipg + 1; last = (g + 1) * ipg
      delete free
      sub(/^  Free inodes: */, ""); n = split($0, r, /, */)
      for (k = 1; k <= n; k++) if (r[k] != "") {
        m = split(r[k], ab, "-"); lo = ab[1] + 0; hi = (m == 2 ? ab[2] : ab[1]) + 0
        for (i = lo; i <= hi; i++) free[i] = 1
      }
      for (i = first; i <= last; i++)
        if (!(i in free) && (i == 2 || i >= 11)) printf "sif <%d> ctime %s\nsif <%d> atime %s\n", i, t, i, t
    }' > "$cmds"
  debugfs -w -f "$cmds" "$img" >/dev/null 2>&1
  rm -f "$cmds"
}
rootimg=$work/root.ext4 dataimg=$work/data.ext4 bootimg=$work/boot.vfat
rm -f "$rootimg" "$dataimg" "$bootimg"
mkfs.ext4 -q -L tock-root -U 746f636b-0000-4000-8000-000000000002 -E hash_seed=746f636b-0000-4000-8000-0000000000f2,root_owner=0:0 \
  -d "$root" "$rootimg" "${ROOT_MIB}M"
ext4_fix_times "$rootimg"
datadir=$work/data
mkdir -p "$datadir/setup" "$datadir/ssh" "$datadir/state/tock" "$datadir/state/tock-web" "$datadir/state/timesync"
find "$datadir" -exec touch -d "@$SOURCE_DATE_EPOCH" {} +
mkfs.ext4 -q -L tock-data -U 746f636b-0000-4000-8000-000000000003 -E hash_seed=746f636b-0000-4000-8000-0000000000f3,root_owner=0:0 \
  -d "$datadir" "$dataimg" "${DATA_MIB}M"
ext4_fix_times "$dataimg"
mkfs.vfat -F 32 -n TOCKBOOT -i "$DISKID" --invariant -C "$bootimg" $((BOOT_MIB * 1024)) >/dev/null
# Directories first, then files, in sorted order, with their time stamps (-m).
(cd "$boot" && find . -mindepth 1 -type d | LC_ALL=C sort | while read -r d; do mmd -i "$bootimg" "::${d#./}"; done)
(cd "$boot" && find . -type f | LC_ALL=C sort | while read -r f; do mcopy -m -i "$bootimg" "$f" "::${f#./}"; done)

# ---------------------------------------------------------------- disk
say "the disk"
img=$IMAGE_CACHE/tock-$version-raspi-arm64.img
start1=8 start2=$((8 + BOOT_MIB)) start3=$((8 + BOOT_MIB + ROOT_MIB))
total=$((start3 + DATA_MIB))
rm -f "$img"; truncate -s "${total}M" "$img"
sfdisk -q "$img" <<PT
label: dos
label-id: 0x$DISKID
unit: sectors
start=$((start1 * 2048)), size=$((BOOT_MIB * 2048)), type=c, bootable
start=$((start2 * 2048)), size=$((ROOT_MIB * 2048)), type=83
start=$((start3 * 2048)), size=$((DATA_MIB * 2048)), type=83
PT
dd if="$bootimg" of="$img" bs=1M seek=$start1 conv=notrunc,sparse status=none
dd if="$rootimg" of="$img" bs=1M seek=$start2 conv=notrunc,sparse status=none
dd if="$dataimg" of="$img" bs=1M seek=$start3 conv=notrunc,sparse status=none
cp "$work/packages.txt" "$IMAGE_CACHE/tock-$version-raspi-arm64.packages"
# The build's time, which a first boot's clock starts from: a repository
# that a test signs for the image is dated no later (Tests/image/image-test.sh).
echo "$SOURCE_DATE_EPOCH" > "$IMAGE_CACHE/tock-$version-raspi-arm64.epoch"
rm -rf "$root" "$boot" "$rootimg" "$dataimg" "$bootimg" "$datadir"
say "image $total MiB ($img) in $(( $(date +%s) - t0 )) s"

mkdir -p "$outdir"
out=$outdir/tock-$version-raspi-arm64.img
# Multi-threaded xz with a fixed block size: the same bytes whatever the
# machine's core count (xz 5.4 and later). IMAGE_COMPRESS=0 leaves the
# image uncompressed in .cache/image only (for the tests).
[ "${IMAGE_COMPRESS:-1}" = 1 ] || exit 0
xz -T0 -6 --block-size=64MiB -c "$img" > "$out.xz.tmp" && mv "$out.xz.tmp" "$out.xz"
if command -v bmaptool >/dev/null; then bmaptool -q create -o "$out.bmap" "$img"; fi
# Raspberry Pi Imager's repository file (`rpi-imager --repo FILE`): the
# sizes and checksums of these files. IMAGE_BASE_URL: where the .img.xz and
# the icon will be served from; without it, this directory (file://).
base_url=${IMAGE_BASE_URL:-file://$(realpath "$outdir")}
install -m 0644 "$here/tock-icon.png" "$outdir/tock-icon.png"
python3 "$here/os-list.py" --image "$img" --download "$out.xz" --url "${base_url%/}/$(basename "$out.xz")" \
  --icon "${base_url%/}/tock-icon.png" --version "$version" --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)" \
  > "$outdir/tock-$version-imager.json.tmp" && mv "$outdir/tock-$version-imager.json.tmp" "$outdir/tock-$version-imager.json"
say "$out.xz: $(du -m "$out.xz" | cut -f1) MiB compressed, $total MiB installed; sha256 $(sha256sum "$out.xz" | cut -c1-16) ($(( $(date +%s) - t0 )) s)"
