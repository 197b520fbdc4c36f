#!/usr/bin/env bash
# The root file system of the Wi-Fi VM test (wifi-test.sh), cached in
# .cache/vm-wifi-<key>/ (the key: the systemd test's root, this script and
# the package list; a change makes a new one):
#
#   rootfs/   the systemd test's Debian 12 root (Tests/vm-systemd/
#             prepare-rootfs.sh) with wpasupplicant (the box's Wi-Fi, as
#             the image has it; the phone's too), hostapd (the home
#             router), dnsmasq-base (the router's DHCP server), iw,
#             wireless-regdb, curl and udhcpc (the phone), and the
#             kernel's mac80211_hwsim with cfg80211 and mac80211 (and the
#             ciphers CCMP and GCMP ask the crypto API for: ccm, gcm, cmac;
#             veth for a cable to another namespace) from the
#             same linux-image package, found by modprobe (depmod)
#
# Prints the cache directory on stdout. Needs root (chroot, apt-get).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
say() { printf 'vm-wifi prepare: %s\n' "$*" >&2; }
die() { printf 'vm-wifi prepare: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (chroot, apt-get)"
export VM_ARCH=amd64
bash "$repo/Tests/vm-systemd/prepare-rootfs.sh" >&2 || die "Tests/vm-systemd/prepare-rootfs.sh"
vms=$repo/.cache/vm-systemd
kdir=$repo/.cache/vm/kernel/current
release=$(basename "$(readlink -f "$kdir")")
packages="wpasupplicant hostapd dnsmasq-base iw wireless-regdb curl udhcpc iproute2"
modules="mac80211_hwsim ccm cmac gcm ghash_generic seqiv veth"
key=$( { cat "$vms/rootfs/.done"; echo "$release $packages $modules"; cat "$0"; } | md5sum | cut -c1-12)
cache=$repo/.cache/vm-wifi-$key
if [ -e "$cache/rootfs/.done" ]; then say "root file system: cached ($cache)"; echo "$cache"; exit 0; fi
t=$(date +%s)
rm -rf "$cache"; mkdir -p "$cache"
r=$cache/rootfs.tmp
cp -a "$vms/rootfs" "$r"
rm -f "$r/.done"
cp /etc/resolv.conf "$r/etc/resolv.conf"
say "apt-get install $packages"
unshare -m --propagation private bash -c '
  r=$1; shift
  mount -t proc proc "$r/proc"; mount --rbind /dev "$r/dev"
  printf "#!/bin/sh\nexit 101\n" > "$r/usr/sbin/policy-rc.d"; chmod 755 "$r/usr/sbin/policy-rc.d"
  chroot "$r" env DEBIAN_FRONTEND=noninteractive apt-get -q update >/dev/null &&
  chroot "$r" env DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends "$@"
  rc=$?; rm -f "$r/usr/sbin/policy-rc.d"; exit $rc' prep "$r" $packages > "$cache/apt.log" 2>&1 \
  || { tail -20 "$cache/apt.log" >&2; die "apt-get install in the root (log: $cache/apt.log)"; }
rm -rf "$r"/var/lib/apt/lists/* "$r"/var/cache/apt/archives/*.deb
# The services the packages enable are the test's to start.
rm -f "$r"/etc/systemd/system/multi-user.target.wants/{hostapd,wpa_supplicant,dnsmasq}.service
ln -sf /dev/null "$r/etc/systemd/system/hostapd.service"
# mac80211_hwsim and what it needs, from the kernel's own package.
moddir=$vms/debs/linux-image-$release/lib/modules/$release
[ -d "$moddir" ] || die "no $moddir (Tests/vm-systemd/prepare-rootfs.sh extracts it)"
dest=$r/lib/modules/$release
mkdir -p "$dest/kernel"
cp "$moddir"/modules.builtin* "$moddir/modules.order" "$dest/" 2>/dev/null || true
modinfo_field() { LC_ALL=C readelf -p .modinfo "$1" 2>/dev/null | sed -n "s/^ *\[ *[0-9a-f]*\] *$2=//p"; }
done_mods=" "
add() {
  local name=$1 f rel dep tmp
  case $done_mods in *" $name "*) return 0 ;; esac
  done_mods="$done_mods$name "
  f=$(find "$moddir/kernel" \( -name "$name.ko*" -o -name "${name//_/-}.ko*" \) | head -1)
  if [ -z "$f" ]; then grep -qE "/${name//[-_]/[-_]}\.ko" "$moddir/modules.builtin" && return 0; die "module $name not in linux-image-$release"; fi
  rel=${f#"$moddir/"}
  mkdir -p "$dest/$(dirname "$rel")"
  cp "$f" "$dest/$rel"
  tmp=$(mktemp)
  case $f in *.xz) xz -dc "$f" > "$tmp" ;; *.zst) zstd -dc "$f" > "$tmp" ;; *) cp "$f" "$tmp" ;; esac
  for dep in $(modinfo_field "$tmp" depends | tr ',' ' '); do add "$dep"; done
  rm -f "$tmp"
}
for m in $modules; do add "$m"; done
chroot "$r" /sbin/depmod "$release" || die "depmod (in the root)"
say "modules:$done_mods"
echo "$key" > "$r/.done"
mv "$r" "$cache/rootfs"
say "root file system ready in $(( $(date +%s) - t )) s ($(du -sh "$cache/rootfs" | cut -f1))"
echo "$cache"
