#!/usr/bin/env bash
# The box's Wi-Fi on a real kernel (make wifi-test): Debian 12 with systemd
# under QEMU (TCG) on Debian's 6.12 kernel, whose mac80211_hwsim makes
# three radios: the box (wlan0, with the image's own wpa_supplicant@wlan0
# link, systemd-networkd files, tock-setup.service, tock-hotspot.service and
# tock-hotspot-page.service from deploy/image/rootfs/), the home router
# (hostapd and dnsmasq in a network namespace) and a phone (wpa_supplicant,
# udhcpc and curl in another). tock and tock-web are this tree's
# (swift build, debug). The checks (guest/wifi-agent) in one boot:
#
#   joins    passphrases with " \ and spaces, 63 characters of them, a
#            64-hex PMK, a hidden SSID (each: associated, a DHCP address
#            from the router, a ping answered)
#   hotspot  a renamed router (its new name 32 arbitrary bytes): the
#            hotspot opens; the phone joins it with tock/hotspot.txt's name
#            and password, gets a DHCP address, finds the router on the
#            page; hostile requests (cross-origin, other Host, 1 MiB body,
#            20 KiB header, short or NUL password, a stalled client, 60
#            idle connections, a connection from another interface); a
#            wrong password posted: the box tries, fails, the hotspot
#            opens again; the right one: the box joins the router and
#            keeps the setting on /data across a setup applied again
#   card     a wrong passphrase on the card: the hotspot; the right one
#            typed on the page: joined
#
# The hotspot's waits are shortened for the test (guest/tock-hotspot-test.conf:
# 25 s in place of 90 s). Prints "wifi: N passed, M failed (T s)".
#
#   VMW_TIMEOUT   seconds the VM may take (default 900)
#   VM_VERBOSE=1  stream the console
#   TOCK_BIN_DIR  where tock and tock-web are (default .build/debug)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$(date +%s%N)
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "PASS $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
secs() { local ms=$((($(date +%s%N) - $1) / 1000000)); echo "$((ms / 1000)).$((ms % 1000 / 100))"; }
finish() { echo "wifi: $passed passed, $failed failed ($(secs "$started") s)"; [ "$failed" = 0 ] && [ "$passed" -gt 0 ]; exit; }
die() { bad "$*"; finish; }
[ "$(id -u)" = 0 ] || die "wifi-test needs root (chroot, mkfs)"
bin=${TOCK_BIN_DIR:-$repo/.build/debug}
for b in tock tock-web; do [ -x "$bin/$b" ] || die "no $bin/$b (swift build --product $b)"; done

# The image's new units, as systemd reads them (ExecStart's program must
# exist: a copy names the binaries under test).
uv=$(mktemp -d)
for u in tock-hotspot tock-hotspot-page; do
  sed "s|^ExecStart=/usr/bin/tock-web |ExecStart=$bin/tock-web |; s|^ExecStart=/usr/bin/tock |ExecStart=$bin/tock |" \
    "$repo/deploy/image/rootfs/systemd/$u.service" > "$uv/$u.service"
done
if out=$(cd "$uv" && systemd-analyze verify ./tock-hotspot.service ./tock-hotspot-page.service 2>&1) && [ -z "$out" ]; then
  ok "systemd-analyze verify tock-hotspot.service tock-hotspot-page.service (no errors, no warnings)"
else
  bad "systemd-analyze verify tock-hotspot.service tock-hotspot-page.service: $out"
fi
rm -rf "$uv"

cache=$(bash "$here/prepare.sh" 2> "${TMPDIR:-/tmp}/vm-wifi-prepare.log") || { cat "${TMPDIR:-/tmp}/vm-wifi-prepare.log"; die "Tests/vm-wifi/prepare.sh"; }
kdir=$repo/.cache/vm/kernel/current
release=$(basename "$(readlink -f "$kdir")")
initrd=$repo/.cache/vm-systemd/initrd-$release.cpio
results=$cache/results run=$cache/run
rm -rf "$run" "$results"; mkdir -p "$run" "$results"
qpid=
cleanup() { [ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null; rm -rf "$run/root"; }
trap cleanup EXIT

# ---------------------------------------------------------------- the disk
t=$(date +%s%N)
root=$run/root
cp -a "$cache/rootfs" "$root" || die "copy of the root file system"
install -m 0755 "$bin/tock" "$root/usr/bin/"
ln -sf tock "$root/usr/bin/tock-web"  # one program, run by that name (as the package installs it)
# The Swift runtime of a debug build, at the paths the binaries name.
for lib in $(ldd "$bin/tock" "$bin/tock-web" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u); do
  [ -e "$root$lib" ] || [ -e "$root/usr$lib" ] || { mkdir -p "$root$(dirname "$lib")"; cp -L "$lib" "$root$lib"; }
done
chroot "$root" /usr/bin/tock --help > /dev/null 2>&1 || die "tock does not run in the guest's root (libraries?)"
chroot "$root" adduser --system --group --no-create-home tock-web > /dev/null 2>&1 || true
# The image's files, as deploy/image/build.sh puts them.
R=$repo/deploy/image/rootfs
install -d "$root/usr/lib/tock-image" "$root/data" "$root/boot/firmware/tock" "$root/etc/systemd/system/tock-hotspot.service.d"
install -m 0755 "$R/boot-rw" "$root/usr/lib/tock-image/"
for u in tock-setup tock-hotspot tock-hotspot-page; do
  sed "s/@DISKID@/746f636b/g" "$R/systemd/$u.service" > "$root/etc/systemd/system/$u.service"
done
install -m 0644 "$here/guest/tock-hotspot-test.conf" "$root/etc/systemd/system/tock-hotspot.service.d/"
# The agent's cable to another namespace is its own (networkd leaves it alone).
printf '[Match]\nName=veth-*\n[Link]\nUnmanaged=yes\n' > "$root/etc/systemd/network/10-test-veth.network"
install -m 0644 "$R"/network/*.network "$root/etc/systemd/network/"
ln -sfn /run/tock-image/wpa_supplicant-wlan0.conf "$root/etc/wpa_supplicant/wpa_supplicant-wlan0.conf"
W=$root/etc/systemd/system
mkdir -p "$W/sysinit.target.wants" "$W/multi-user.target.wants" "$W/sys-subsystem-net-devices-wlan0.device.wants" "$W/sockets.target.wants"
ln -sfn ../tock-setup.service "$W/sysinit.target.wants/tock-setup.service"
ln -sfn ../tock-hotspot.service "$W/multi-user.target.wants/tock-hotspot.service"
ln -sfn /lib/systemd/system/wpa_supplicant@.service "$W/sys-subsystem-net-devices-wlan0.device.wants/wpa_supplicant@wlan0.service"
ln -sfn /lib/systemd/system/systemd-networkd.service "$W/multi-user.target.wants/systemd-networkd.service"
ln -sfn /lib/systemd/system/systemd-networkd.socket "$W/sockets.target.wants/systemd-networkd.socket"
rm -f "$W/multi-user.target.wants/wpa_supplicant.service"
install -m 0644 "$here/guest/wifi-agent.service" "$W/"
install -m 0755 "$here/guest/wifi-agent" "$root/usr/local/sbin/"
ln -sfn ../wifi-agent.service "$W/multi-user.target.wants/wifi-agent.service"
ln -sf /dev/null "$W/serial-getty@ttyS0.service"
# What the systemd test's root runs that this test does not need.
for u in mosquitto.service getty@.service systemd-timesyncd.service; do ln -sf /dev/null "$W/$u"; done
# /data on a disk of its own, as on the card (tock-setup.service requires data.mount).
printf '/dev/vda / ext4 rw,errors=remount-ro 0 0\n/dev/vdb /data ext4 rw 0 2\n' > "$root/etc/fstab"
mkdir -p "$run/data/setup"
mkfs.ext4 -q -F -L tock-data -d "$run/data" "$run/data.img" 32M > "$results/mkfs.log" 2>&1 || { cat "$results/mkfs.log"; die "mkfs.ext4 (data)"; }
mkfs.ext4 -q -F -L tockroot -d "$root" "$run/disk.img" 2G >> "$results/mkfs.log" 2>&1 || { cat "$results/mkfs.log"; die "mkfs.ext4 -d"; }
rm -rf "$root"
echo "wifi-test: disk ready ($(secs "$t") s)"

# ---------------------------------------------------------------- the boot
kernel=$kdir/vmlinuz firmware=()
if [ -f "$kdir/vmlinux" ]; then
  kernel=$kdir/vmlinux
  qboot=$(qemu-system-x86_64 -L help 2>/dev/null | while read -r d; do [ -f "$d/qboot.rom" ] && echo "$d/qboot.rom" && break; done || true)
  [ -n "$qboot" ] && firmware=(-bios "$qboot")
fi
log=$results/console.log
: > "$log"
t=$(date +%s%N)
# No network card: the box has Wi-Fi alone, as a Zero 2 W.
qemu-system-x86_64 -nographic -no-reboot -m 1024 -smp 2 -accel tcg -nic none \
  "${firmware[@]}" -kernel "$kernel" -initrd "$initrd" \
  -append "console=ttyS0 panic=-1 loglevel=4 mitigations=off" \
  -drive "file=$run/disk.img,format=raw,if=virtio" -drive "file=$run/data.img,format=raw,if=virtio" -rtc base=utc \
  < /dev/null > "$log" 2>&1 &
qpid=$!
[ "${VM_VERBOSE:-0}" = 1 ] && tail -f --pid="$qpid" "$log" &
end=$((SECONDS + ${VMW_TIMEOUT:-900}))
while [ "$SECONDS" -lt "$end" ] && kill -0 "$qpid" 2>/dev/null && ! tr -d '\r' < "$log" | grep -aq '^WIFI-DONE'; do sleep 1; done
while IFS= read -r line; do
  case $line in
    "WIFI-CHECK PASS "*) ok "${line#WIFI-CHECK PASS }" ;;
    "WIFI-CHECK FAIL "*) bad "${line#WIFI-CHECK FAIL }" ;;
  esac
done < <(tr -d '\r' < "$log" | grep -a '^WIFI-CHECK ')
if tr -d '\r' < "$log" | grep -aq '^WIFI-DONE'; then
  echo "wifi-test: the guest's checks done $(secs "$t") s after QEMU started"
else
  bad "the guest's checks did not finish within ${VMW_TIMEOUT:-900} s"
fi
if [ "$failed" != 0 ]; then
  echo "---- the guest's notes and the last console lines ($log):"
  tr -d '\r' < "$log" | grep -a '^WIFI: ' | tail -60 | sed 's/^/     | /'
  tr -d '\r' < "$log" | grep -av '^WIFI' | tail -20 | sed 's/^/     | /'
fi
kill -KILL "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null; qpid=
finish
