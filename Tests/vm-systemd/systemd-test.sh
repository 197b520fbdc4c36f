#!/usr/bin/env bash
# The tock .deb on a real systemd: Debian 12 (debootstrap minbase) booted
# under QEMU (TCG) with Debian's 6.12 kernel and a gpio-sim chip, the package
# installed and enabled, the service checked through two boots of one disk:
#
#   boot 1  tock.service active and READY after boot; tock-web.service active
#           as its own user, serving the page on port 8080 inside the guest
#           and refusing the API without a token; a Start press (GPIO17)
#           runs the 10 min count-down, `systemctl kill -s KILL tock` is
#           followed by a restart within seconds that continues the count;
#           then, from the host through QEMU's forwarded port
#           (host-page.py), the page, a pairing with the code the box's
#           display shows, the running count read with the token and a
#           cross-origin POST refused; then the host kills QEMU (SIGKILL)
#           in the middle of the count-down
#   boot 2  the same disk: tock active again, the count continued across the
#           hard stop (within 1 s of the time since the start)
#
# and the buzzer line (GPIO18) low after each of these. The checks run in the
# VM (guest/tock-test-agent, a systemd unit) and report on the serial console.
#
#   Tests/vm-systemd/systemd-test.sh
#
#   TOCK_DEB=PATH     the package (default .build/deb/tock_<version>_<arch>.deb)
#   VMS_BOOT_TIMEOUT  seconds a boot may take to report (default 300)
#   VM_VERBOSE=1      stream the console
#   VM_ARCH=arm64     the arm64 package on Debian 13 arm64 (Tests/vm/arch.sh),
#                     the root file system being the Raspberry Pi image's base
#                     root (prepare-rootfs.sh): a boot 0 installs the package
#                     in the guest with `apt install ./tock_*.deb`, with what
#                     the root lacks (and mosquitto) in a local repository
#                     (local-repo.sh, guest/tock-test-install)
#
# Logs: .cache/vm-systemd/results/console-boot{1,2}.log. Prints
# "systemd: N passed, M failed" and exits non-zero on any failure.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=Tests/vm/arch.sh
. "$repo/Tests/vm/arch.sh"
vm_cache=${VM_CACHE:-$vm_cache_default}
if [ "$vm_arch" = amd64 ]; then cache=${VMS_CACHE:-$repo/.cache/vm-systemd}; else cache=${VMS_CACHE:-$repo/.cache/vm-systemd-$vm_arch}; fi
export VM_ARCH=$vm_arch
# The arm64 guest's first boot installs the package with apt under software
# emulation (on a minimal root some 45 packages took over 300 s).
if [ "$vm_arch" = amd64 ]; then boot_timeout=${VMS_BOOT_TIMEOUT:-300}; else boot_timeout=${VMS_BOOT_TIMEOUT:-900}; fi
started=$(date +%s%N)

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "PASS $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
secs() { local ms=$((($(date +%s%N) - $1) / 1000000)); echo "$((ms / 1000)).$((ms % 1000 / 100))"; }
script_args=("$@")
finish() {
  echo "systemd: $passed passed, $failed failed ($(secs "$started") s)"
  # A guest kernel that panicked (TCG's emulation of the kernel patching its
  # own code has faulted in get_random_u32) says nothing of the package:
  # the whole test runs once more on a new disk, the first run's consoles
  # kept beside it. Any other failure, or a second panic, fails.
  if [ "$failed" != 0 ] && [ -z "${SYSTEMD_TEST_RETRY:-}" ] && [ -n "${results:-}" ] \
     && grep -laq 'Kernel panic - not syncing' "$results"/console-boot*.log 2>/dev/null; then
    echo "systemd-test: RETRY: the guest's kernel panicked ($(grep -la 'Kernel panic - not syncing' "$results"/console-boot*.log | xargs -n1 basename | tr '\n' ' ')); a fault of the emulated guest, not of the package: once more on a new disk (the first run's logs: $results.panicked)"
    rm -rf "$results.panicked"; mv "$results" "$results.panicked"
    declare -F cleanup > /dev/null && cleanup
    SYSTEMD_TEST_RETRY=1 exec bash "$here/systemd-test.sh" "${script_args[@]}"
  fi
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
  exit
}
die() { bad "$*"; finish; }
[ "$(id -u)" = 0 ] || die "systemd-test needs root (debootstrap, chroot, dpkg --root)"

# ---------------------------------------------------------------- prerequisites
arch=$vm_arch
version=$(if [ -f "$repo/VERSION" ]; then cat "$repo/VERSION"; elif [ -f "$repo/deploy/VERSION" ]; then cat "$repo/deploy/VERSION"; else echo 0.1.0; fi | tr -d ' \t\n')
deb=${TOCK_DEB:-$repo/.build/deb/tock_${version}_${arch}.deb}
[ -f "$deb" ] || die "no package $deb (make deb)"
mkdir -p "$cache"
# (arm64: the first time, the guest runs debootstrap's second stage emulated)
if ! timeout 3600 bash "$here/prepare-rootfs.sh" > "$cache/prepare.log" 2>&1; then
  cat "$cache/prepare.log"
  die "prepare-rootfs.sh"
fi
kdir=$vm_cache/kernel/current
release=$(basename "$(readlink -f "$kdir")")
initrd=$cache/initrd-$release.cpio
echo "systemd-test: package $deb, kernel $release"

results=$cache/results
run=$cache/run
rm -rf "$run" "$results"
mkdir -p "$run" "$results"
qpid=
cleanup() {
  if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then kill -KILL "$qpid" 2>/dev/null; fi
  rm -rf "$run/root"
}
trap cleanup EXIT

# ---------------------------------------------------------------- the disk
t=$(date +%s%N)
root=$run/root
cp -a "$cache/rootfs" "$root" || die "copy of the root file system"
if [ "$vm_arch" != amd64 ]; then
  # installed in the guest at boot 0
  mkdir -p "$root/var/local/tock-test"
  cp "$deb" "$root/var/local/tock-test/"
  # the guest's own broker for the MQTT check, installed with the package
  echo "mosquitto mosquitto-clients" > "$root/var/local/tock-test/also-install"
  if deps=$(bash "$here/local-repo.sh" "$root" "$deb" mosquitto mosquitto-clients 2> "$results/local-repo.log"); then
    ok "what the root lacks for the package and the test (mosquitto), in a local apt repository: ${deps:-none}"
  else
    cat "$results/local-repo.log"
    die "local-repo.sh"
  fi
  install -m 0644 "$here/guest/tock-test-install.service" "$here/guest/tock-test-install.target" "$root/etc/systemd/system/"
  install -m 0755 "$here/guest/tock-test-install" "$root/usr/local/sbin/"
else
cp "$deb" "$root/tmp/tock.deb"
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"; chmod 755 "$root/usr/sbin/policy-rc.d"
if timeout 300 chroot "$root" dpkg -i /tmp/tock.deb > "$results/dpkg.log" 2>&1; then
  ok "dpkg -i $(basename "$deb") in the Debian 12 root file system"
else
  sed 's/^/     | /' "$results/dpkg.log"
  die "dpkg -i $(basename "$deb") in the Debian 12 root file system"
fi
rm -f "$root/usr/sbin/policy-rc.d" "$root/tmp/tock.deb"
if [ -L "$root/etc/systemd/system/multi-user.target.wants/tock.service" ]; then
  ok "the package enabled tock.service"
else
  bad "the package enabled tock.service (no multi-user.target.wants/tock.service)"
fi
fi
if [ "$vm_arch" = amd64 ]; then
  install -m 0644 "$here/guest/config.yaml" "$root/etc/tock/config.yaml"
else
  # in place of the package's after the install (tock-test-install)
  install -m 0644 "$here/guest/config.yaml" "$root/var/local/tock-test/config.yaml"
fi
install -m 0644 "$here/guest/gpio-sim.service" "$here/guest/tock-test-agent.service" "$root/etc/systemd/system/"
install -m 0755 "$here/guest/gpio-sim-setup" "$here/guest/tock-test-agent" "$root/usr/local/sbin/"
mkdir -p "$root/etc/systemd/system/sysinit.target.wants"
ln -sf /etc/systemd/system/gpio-sim.service "$root/etc/systemd/system/sysinit.target.wants/gpio-sim.service"
ln -sf /etc/systemd/system/tock-test-agent.service "$root/etc/systemd/system/multi-user.target.wants/tock-test-agent.service"
# the agent reports on the serial console; a getty there would hang it up
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@$vm_console.service"
sed -i "s|^TTYPath=/dev/ttyS0|TTYPath=/dev/$vm_console|" "$root"/etc/systemd/system/tock-test-*.service
# The network: QEMU's user-mode network (no way out: restrict=on) with the
# host's port forwarded to the page's 8080; systemd-networkd gives the card
# QEMU's fixed guest address.
mkdir -p "$root/etc/systemd/network" "$root/etc/systemd/system/sockets.target.wants"
printf '[Match]\nName=en* eth*\n\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\n' > "$root/etc/systemd/network/10-qemu.network"
ln -sf /lib/systemd/system/systemd-networkd.service "$root/etc/systemd/system/multi-user.target.wants/systemd-networkd.service"
ln -sf /lib/systemd/system/systemd-networkd.socket "$root/etc/systemd/system/sockets.target.wants/systemd-networkd.socket"
mkdir -p "$root/lib/modules/$release/extra"
while read -r m; do cp "$kdir/modules/$m.ko" "$root/lib/modules/$release/extra/"; done < "$kdir/load-order"
cp "$kdir/load-order" "$root/lib/modules/$release/extra/"
disk=$run/disk.img
mkfs.ext4 -q -F -L tockroot -d "$root" "$disk" 2G > "$results/mkfs.log" 2>&1 || { cat "$results/mkfs.log"; die "mkfs.ext4 -d"; }
rm -rf "$root"
echo "systemd-test: disk ready ($(secs "$t") s)"

# ---------------------------------------------------------------- boots
kernel=$kdir/vmlinuz firmware=()
if [ "$vm_arch" = amd64 ] && [ -f "$kdir/vmlinux" ]; then
  kernel=$kdir/vmlinux
  qboot=$(qemu-system-x86_64 -L help 2>/dev/null | while read -r d; do
            [ -f "$d/qboot.rom" ] && echo "$d/qboot.rom" && break; done || true)
  [ -n "$qboot" ] && firmware=(-bios "$qboot")
fi

web_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# boot N [KERNEL ARGS]: start QEMU on the disk in the background; sets qpid and log
boot() {
  log=$results/console-boot$1.log
  : > "$log"
  rm -f "$run/qemu.pid"
  "$vm_qemu" "${vm_qemu_machine[@]}" -nographic -no-reboot -m 1024 -smp 2 -accel tcg \
    -nic "user,model=virtio-net-pci,restrict=on,hostfwd=tcp:127.0.0.1:$web_port-:8080" \
    "${firmware[@]}" -kernel "$kernel" -initrd "$initrd" \
    -append "console=$vm_console panic=-1 loglevel=4 mitigations=off${2:+ $2}" \
    -drive "file=$disk,format=raw,if=virtio" -rtc base=utc \
    < /dev/null > "$log" 2>&1 &
  qpid=$!
  if [ "${VM_VERBOSE:-0}" = 1 ]; then tail -f --pid="$qpid" "$log" & fi
}
# wait_for ERE SECONDS: until the console log has a matching line or QEMU ended
wait_for() {
  local end=$((SECONDS + $2))
  while [ "$SECONDS" -lt "$end" ]; do
    tr -d '\r' < "$log" | grep -aqE "$1" && return 0
    kill -0 "$qpid" 2>/dev/null || { tr -d '\r' < "$log" | grep -aqE "$1"; return; }
    sleep 0.5
  done
  return 1
}
report() {   # the checks of boot N from its log (lines "PREFIX PASS ..."/"PREFIX FAIL ...", default AGENT-CHECK)
  local line prefix=${2:-AGENT-CHECK}
  while IFS= read -r line; do
    case $line in
      "$prefix PASS "*) ok "boot $1: ${line#"$prefix" PASS }" ;;
      "$prefix FAIL "*) bad "boot $1: ${line#"$prefix" FAIL }" ;;
    esac
  done < <(tr -d '\r' < "$log" | grep -a "^$prefix ")
}
console_tail() {
  echo "---- last 40 lines of $log:"
  tr -d '\r' < "$log" | tail -n 40 | sed 's/^/     | /'
  echo "----"
}
unfinished() {   # boot N ended, or timed out, before its agent finished
  report "$1"
  if kill -0 "$qpid" 2>/dev/null; then
    bad "boot $1: the agent did not finish within $boot_timeout s"
  else
    bad "boot $1: the VM stopped before the agent finished"
  fi
  console_tail
}

# ---------------------------------------------------------------- boot 0 (arm64): apt install
if [ "$vm_arch" != amd64 ]; then
  t=$(date +%s%N)
  boot 0 systemd.unit=tock-test-install.target
  if wait_for '^INSTALL-DONE' "$boot_timeout"; then
    echo "systemd-test: boot 0 (install) done ($(secs "$t") s after QEMU started)"
    report 0 INSTALL-CHECK
    tr -d '\r' < "$log" | grep -a '^INSTALL:' > "$results/apt-install.log"
    end=$((SECONDS + 90))
    while kill -0 "$qpid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do sleep 0.5; done
    kill -0 "$qpid" 2>/dev/null && bad "boot 0: clean power-off (QEMU still running 90 s after the install)"
    grep -aq '^INSTALL-CHECK FAIL' "$log" && console_tail
  else
    bad "boot 0: the install did not finish within $boot_timeout s"
    console_tail
  fi
  kill -KILL "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null
  [ "$failed" = 0 ] || finish
fi

t=$(date +%s%N)
boot 1
if wait_for '^AGENT-PHASE1-DONE' "$boot_timeout"; then
  echo "systemd-test: boot 1 checks done ($(secs "$t") s after QEMU started)"
  report 1
  # the guest and the package that ran: the agent's "machine ..." line
  seen=$(tr -d '\r' < "$log" | sed -n 's/^AGENT: \[[0-9.]*\] machine //p' | head -1)
  echo "systemd-test: guest: machine $seen"
  case $seen in
    "$vm_uname_m, "*", tock package $version $arch") ok "boot 1: the guest is $vm_uname_m and runs tock $version ($arch) as installed" ;;
    *) bad "boot 1: the guest is $vm_uname_m and runs tock $version ($arch): it says '$seen'" ;;
  esac
  # the page from the host side, while the count runs
  while IFS= read -r line; do
    case $line in
      "PASS "*) ok "boot 1, from the host: ${line#PASS }" ;;
      "FAIL "*) bad "boot 1, from the host: ${line#FAIL }" ;;
      *) echo "$line" ;;
    esac
  done < <(python3 "$here/host-page.py" --port "$web_port" --log "$log" --timeout 120 2>&1)
  # the hard stop, a few seconds into the count-down
  sleep 3
  kill -KILL "$qpid"; wait "$qpid" 2>/dev/null
  ok "boot 1: QEMU killed (SIGKILL) in the middle of the count-down"
else
  unfinished 1
  kill -KILL "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null
  finish
fi
grep -aqE '^AGENT-CHECK FAIL' "$log" && console_tail

t=$(date +%s%N)
boot 2
if wait_for '^AGENT-DONE' "$boot_timeout"; then
  echo "systemd-test: boot 2 checks done ($(secs "$t") s after QEMU started)"
  report 2
  end=$((SECONDS + 60))
  while kill -0 "$qpid" 2>/dev/null && [ "$SECONDS" -lt "$end" ]; do sleep 0.5; done
  if ! kill -0 "$qpid" 2>/dev/null; then
    ok "boot 2: clean power-off"
  else
    bad "boot 2: clean power-off (QEMU still running 60 s after the checks)"
  fi
  grep -aqE '^AGENT-CHECK FAIL' "$log" && console_tail
else
  unfinished 2
fi
kill -KILL "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null
qpid=
finish
