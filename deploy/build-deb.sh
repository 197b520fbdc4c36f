#!/usr/bin/env bash
# Build the Debian package of Tock from a release binary (make deb runs it).
#
#   deploy/build-deb.sh BINARY OUTDIR     writes OUTDIR/tock_<version>_<arch>.deb
#   deploy/build-deb.sh --web TOCK_WEB BINARY OUTDIR
#                                         with the web page's server (tock-web,
#                                         docs/web.md), its unit and its Avahi
#                                         announcement; by default the tock-web
#                                         beside BINARY, when there is one
#   deploy/build-deb.sh --arch ARCH --sysroot DIR BINARY OUTDIR
#                                         the same for a binary cross-built for
#                                         ARCH against the Debian root DIR
#                                         (deploy/cross/: arm64, Debian 13)
#
# version: the VERSION file at the repository root if there is one, else
#          deploy/VERSION, else 0.1.0
# arch:    --arch, else dpkg --print-architecture (arm64 on a 64-bit Pi OS,
#          armhf on a 32-bit one, amd64 on a PC); the binary must be built for it
# Depends: computed from the binary's shared libraries with dpkg-shlibdeps
#          (package dpkg-dev), else with ldd and dpkg -S; plus adduser, which
#          the maintainer scripts use. Recommends: libmosquitto1 (opened only
#          with an mqtt: section). With --sysroot, dpkg-shlibdeps reads
#          the libraries and the dpkg database of DIR (no fallback), and the
#          binary is stripped with ARCH's binutils (binutils-<triplet>).
# DEB_MAINTAINER overrides the Maintainer field.
# The package is rebuilt only when it is older than one of its inputs
# (DEB_FORCE=1 rebuilds it anyway).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
arch= sysroot= web= web_file=
while [ $# -gt 0 ]; do
  case $1 in
    --web) web=${2:?--web TOCK_WEB}; shift 2 ;;
    --arch) arch=${2:?--arch ARCH}; shift 2 ;;
    --sysroot) sysroot=${2:?--sysroot DIR}; shift 2 ;;
    *) break ;;
  esac
done
binary=${1:?usage: build-deb.sh [--arch ARCH --sysroot DIR] BINARY OUTDIR}
outdir=${2:?usage: build-deb.sh [--arch ARCH --sysroot DIR] BINARY OUTDIR}
[ -x "$binary" ] || { echo "build-deb: $binary is not an executable file" >&2; exit 1; }
if [ -z "$web" ] && [ -x "$(dirname "$binary")/tock-web" ]; then web=$(dirname "$binary")/tock-web; fi
[ -z "$web" ] || [ -x "$web" ] || { echo "build-deb: $web is not an executable file" >&2; exit 1; }

if [ -f "$repo/VERSION" ]; then version=$(tr -d ' \t\n' < "$repo/VERSION")
elif [ -f "$here/VERSION" ]; then version=$(tr -d ' \t\n' < "$here/VERSION")
else version=0.1.0; fi
case $version in
  [0-9]*) ;;
  *) echo "build-deb: version '$version' must start with a digit (Debian policy 5.6.12)" >&2; exit 1 ;;
esac
host_arch=$(dpkg --print-architecture)
arch=${arch:-$host_arch}
if [ "$arch" != "$host_arch" ]; then
  [ -n "$sysroot" ] || { echo "build-deb: a package for $arch on $host_arch needs --sysroot (the $arch system it links against)" >&2; exit 1; }
  [ -d "$sysroot/var/lib/dpkg/info" ] || { echo "build-deb: $sysroot has no dpkg database (deploy/cross/prepare.sh makes one)" >&2; exit 1; }
  command -v dpkg-architecture >/dev/null || { echo "build-deb: a cross package needs dpkg-architecture (apt-get install dpkg-dev)" >&2; exit 1; }
  triplet=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)
  strip=$triplet-strip
  command -v "$strip" >/dev/null && command -v "$triplet-objdump" >/dev/null \
    || { echo "build-deb: $strip or $triplet-objdump missing (apt-get install binutils-$triplet)" >&2; exit 1; }
else
  strip=strip triplet=
fi
maintainer=${DEB_MAINTAINER:-Tock maintainers <tock@localhost>}
deb=$outdir/tock_${version}_${arch}.deb

inputs=("$binary" ${web:+"$web"} "$here/tock-web.service" "$here/tock.avahi.service" "$here/tock.service" "$here/lintian-overrides" "$here/config.yaml" "$here/99-tock-gpio.rules" "$here/update" "$here"/update/* "$here/build-deb.sh" "$repo/README.md" "$repo/docs" "$repo"/docs/*.md)
if [ -f "$deb" ] && [ "${DEB_FORCE:-0}" != 1 ] && [ -z "$(find "${inputs[@]}" -newer "$deb")" ]; then
  echo "$deb (up to date)"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg=$work/tock
umask 022

# ---------------------------------------------------------------- files
install -d "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/lib/systemd/system" "$pkg/lib/udev/rules.d" \
  "$pkg/etc/tock" "$pkg/usr/share/doc/tock/docs" "$pkg/usr/share/lintian/overrides"
install -m 0755 "$binary" "$pkg/usr/bin/tock"
# Symbols and debug information are not needed on the appliance.
"$strip" --strip-unneeded "$pkg/usr/bin/tock"
install -m 0644 "$here/tock.service" "$pkg/lib/systemd/system/tock.service"
if [ -n "$web" ]; then
  # The page on the LAN: its own program name, unit and user (docs/web.md).
  install -d "$pkg/etc/avahi/services"
  if [ "$(realpath "$web")" = "$(realpath "$binary")" ]; then
    # One program (Sources/tock/Main.swift): tock-web is tock run by that name.
    ln -s tock "$pkg/usr/bin/tock-web"
    web_file=
  else
    install -m 0755 "$web" "$pkg/usr/bin/tock-web"
    "$strip" --strip-unneeded "$pkg/usr/bin/tock-web"
    web_file=$pkg/usr/bin/tock-web
  fi
  install -m 0644 "$here/tock-web.service" "$pkg/lib/systemd/system/tock-web.service"
  install -m 0644 "$here/tock.avahi.service" "$pkg/etc/avahi/services/tock.service"
fi
install -m 0644 "$here/99-tock-gpio.rules" "$pkg/lib/udev/rules.d/99-tock-gpio.rules"
# The daily check of the apt repository (as the tock user; it installs
# nothing) and tock-update, the install by hand as root (docs/updates.md).
install -d "$pkg/usr/lib/tock" "$pkg/usr/sbin"
install -m 0755 "$here/update/tock-update-check" "$pkg/usr/lib/tock/tock-update-check"
install -m 0755 "$here/update/tock-update" "$pkg/usr/sbin/tock-update"
install -m 0644 "$here/update/tock-update-check.service" "$here/update/tock-update-check.timer" "$pkg/lib/systemd/system/"
install -m 0644 "$here/config.yaml" "$pkg/etc/tock/config.yaml"
install -m 0644 "$repo/README.md" "$pkg/usr/share/doc/tock/README.md"
# The pages the README links to, where its links find them.
install -m 0644 "$repo"/docs/*.md "$pkg/usr/share/doc/tock/docs/"
# The example stays readable after the configuration in /etc is edited.
install -m 0644 "$here/config.yaml" "$pkg/usr/share/doc/tock/config.yaml"
# Why the remaining lintian tags do not apply (lintian reads this file).
install -m 0644 "$here/lintian-overrides" "$pkg/usr/share/lintian/overrides/tock"

# The binary must run on the package's architecture.
machine=$(LC_ALL=C readelf -h "$pkg/usr/bin/tock" | sed -n 's/^ *Machine: *//p')
case $arch:$machine in
  amd64:*X86-64*|arm64:*AArch64*|armhf:*ARM*|armel:*ARM*|i386:*80386*|riscv64:*RISC-V*|ppc64el:*PowerPC64*|s390x:*S/390*) ;;
  *) echo "build-deb: $binary is built for '$machine', not for $arch" >&2; exit 1 ;;
esac

# The box runs no Foundation (docs/benchmarks.md, "Binary size"): no
# Foundation module linked in, and the program at most 12 MiB stripped.
nm=${triplet:+$triplet-}nm
if ! command -v "$nm" >/dev/null; then
  echo "build-deb: $nm missing (apt-get install binutils${triplet:+-$triplet})" >&2; exit 1
fi
"$nm" "$binary" >"$work/symbols" 2>/dev/null || true
if [ ! -s "$work/symbols" ]; then
  echo "build-deb: $binary has no symbol table to check the modules it links (build it unstripped)" >&2; exit 1
fi
linked=$( (grep -oE '\$s(10Foundation|20FoundationEssentials|22_FoundationCollections|17_StringProcessing|12_RegexParser)' "$work/symbols" || true) | sort -u | tr '\n' ' ')
if [ -n "$linked" ]; then
  echo "build-deb: $binary links modules the box must not carry (mangled prefixes: $linked); see Vendor/swift-argument-parser/README.md" >&2
  exit 1
fi
size=$(stat -c %s "$pkg/usr/bin/tock")
if [ "$size" -gt $((12 * 1024 * 1024)) ]; then
  echo "build-deb: tock is $size bytes stripped, more than 12 MiB ($((12 * 1024 * 1024)))" >&2
  exit 1
fi

# ---------------------------------------------------------------- dependencies
shlibs=
if [ -n "$triplet" ]; then
  # Cross: the sysroot's libraries and package database; dpkg-shlibdeps
  # reads the ELF with $triplet-objdump when DEB_HOST_ARCH says so.
  mkdir -p "$work/src/debian"
  printf 'Source: tock\n\nPackage: tock\nArchitecture: any\n' > "$work/src/debian/control"
  shlibs=$(cd "$work/src" && DEB_HOST_ARCH=$arch dpkg-shlibdeps --admindir="$sysroot/var/lib/dpkg" \
             -l"$sysroot/usr/lib/$triplet" -l"$sysroot/lib/$triplet" -O -e"$pkg/usr/bin/tock" ${web_file:+-e"$web_file"} 2> "$work/shlibdeps.err" \
           | sed -n 's/^shlibs:Depends=//p') || true
  [ -n "$shlibs" ] || { cat "$work/shlibdeps.err" >&2; echo "build-deb: dpkg-shlibdeps against $sysroot failed" >&2; exit 1; }
elif command -v dpkg-shlibdeps >/dev/null; then
  # dpkg-shlibdeps reads debian/control from the directory it runs in.
  mkdir -p "$work/src/debian"
  printf 'Source: tock\n\nPackage: tock\nArchitecture: any\n' > "$work/src/debian/control"
  shlibs=$(cd "$work/src" && dpkg-shlibdeps -O -e"$pkg/usr/bin/tock" ${web_file:+-e"$web_file"} 2> "$work/shlibdeps.err" | sed -n 's/^shlibs:Depends=//p') || {
    cat "$work/shlibdeps.err" >&2; shlibs=; }
fi
if [ -z "$shlibs" ]; then
  # Without dpkg-dev: the package owning each library ldd finds (no versions).
  echo "build-deb: dpkg-shlibdeps not available or failed; Depends from ldd and dpkg -S (unversioned)" >&2
  shlibs=$(ldd "$pkg/usr/bin/tock" ${web_file:+"$web_file"} | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | while read -r lib; do
      for p in "$lib" "$(readlink -f "$lib")" "/usr$lib" "${lib#/usr}"; do
        owner=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && { echo "$owner"; break; }
      done
    done | sort -u | paste -sd, | sed 's/,/, /g')
fi
case $shlibs in
  *libgpiod*) ;;
  *) echo "build-deb: the binary does not link libgpiod (Depends: '$shlibs'); is this the tock binary?" >&2; exit 1 ;;
esac
# libcrypto is opened with dlopen by `tock setup` alone (a Wi-Fi
# passphrase's key, Sources/CLibcrypto): named here, as dpkg-shlibdeps
# cannot see it (libssl3t64 on Debian 13, libssl3 before).
depends="$shlibs, adduser, libssl3t64 | libssl3"
# libmosquitto is opened with dlopen only when mqtt: is configured
# (docs/mqtt.md), so dpkg-shlibdeps cannot see it: recommended, as a box
# without MQTT runs without it (and without the TLS libraries it brings).
recommends="libmosquitto1"

installed_size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)

# ---------------------------------------------------------------- control
cat > "$pkg/DEBIAN/control" <<EOF
Package: tock
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends${web:+, avahi-daemon}
Section: misc
Priority: optional
Description: timer appliance for Raspberry Pi and other Linux boards
 Tock turns a single-board computer with a GPIO character device, three
 push buttons, an Up/Down switch, a buzzer and a 7-segment display into a
 count-down/count-up timer, stopwatch, countdown to a calendar instant or
 interval timer that starts at boot. The tock service runs as the tock user;
 its configuration is /etc/tock/config.yaml.
EOF
echo /etc/tock/config.yaml > "$pkg/DEBIAN/conffiles"
[ -z "$web" ] || echo /etc/avahi/services/tock.service >> "$pkg/DEBIAN/conffiles"
# Checksums for debsums / dpkg --verify (conffiles have their own in dpkg's database).
(cd "$pkg" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"

# ---------------------------------------------------------------- maintainer scripts
# The tock account is the package's only when it is a system account: the
# user's uid and the group's gid in the ranges adduser allocates system
# accounts from (Debian Policy 9.2.2). An ordinary account of that name is a
# person's: preinst and postinst refuse to take it over, postrm leaves it be.
# Inserted into preinst, postinst and postrm in place of @ACCOUNT@.
cat > "$work/account.sh" <<'EOF'
# adduser_conf KEY DEFAULT: KEY's number in /etc/adduser.conf, else DEFAULT.
adduser_conf() {
    ac_value=$(sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*[\"']\{0,1\}\([0-9][0-9]*\)[\"']\{0,1\}[[:space:]]*\$/\1/p" \
        /etc/adduser.conf 2>/dev/null | tail -n 1)
    echo "${ac_value:-$2}"
}
# tock_account_foreign: says what is wrong, and what to do, when the tock
# user or the tock group exists and is not a system one; says nothing when
# they are system ones or absent.
tock_account_foreign() {
    fa_first=$(adduser_conf FIRST_SYSTEM_UID 100)
    fa_last=$(adduser_conf LAST_SYSTEM_UID 999)
    if fa_entry=$(getent passwd tock); then
        fa_id=$(echo "$fa_entry" | cut -d: -f3)
        if [ "$fa_id" -lt "$fa_first" ] || [ "$fa_id" -gt "$fa_last" ]; then
            echo "the user account tock (uid $fa_id, home $(echo "$fa_entry" | cut -d: -f6)) is not a system account"
            echo "(system accounts have uids $fa_first-$fa_last: FIRST_SYSTEM_UID and LAST_SYSTEM_UID in /etc/adduser.conf)."
            echo "The tock service runs as a system account of its own, which this package creates;"
            echo "it does not take over a person's account. Rename that account, for example"
            echo "    usermod --login tock-old --move-home --home /home/tock-old tock"
            echo "    groupmod --new-name tock-old tock"
            echo "or remove it (deluser tock), then install tock again."
            return 0
        fi
    fi
    fa_first=$(adduser_conf FIRST_SYSTEM_GID 100)
    fa_last=$(adduser_conf LAST_SYSTEM_GID 999)
    if fa_entry=$(getent group tock); then
        fa_id=$(echo "$fa_entry" | cut -d: -f3)
        if [ "$fa_id" -lt "$fa_first" ] || [ "$fa_id" -gt "$fa_last" ]; then
            echo "the group tock (gid $fa_id) is not a system group"
            echo "(system groups have gids $fa_first-$fa_last: FIRST_SYSTEM_GID and LAST_SYSTEM_GID in /etc/adduser.conf)."
            echo "The tock service runs with a system group of its own, which this package creates;"
            echo "it does not take over an existing group. Rename that group"
            echo "(groupmod --new-name tock-old tock) or remove it (delgroup tock), then install tock again."
        fi
    fi
}
# refuse_foreign_account VERB: exits 1 with tock_account_foreign's message.
refuse_foreign_account() {
    rf_problem=$(tock_account_foreign)
    [ -n "$rf_problem" ] || return 0
    echo "tock: refusing to $1: $rf_problem" >&2
    exit 1
}
EOF

cat > "$pkg/DEBIAN/preinst" <<'EOF'
#!/bin/sh
# tock preinst: refuse before anything is unpacked when an account or group
# named tock exists and is not a system one (postinst checks again).
set -e
@ACCOUNT@
if [ "$1" = install ] || [ "$1" = upgrade ]; then
    refuse_foreign_account install
fi
exit 0
EOF

cat > "$pkg/DEBIAN/postinst" <<'EOF'
#!/bin/sh
# tock postinst: the tock system user and the device groups, the udev rules
# applied, the service enabled (first install) and started (or restarted on
# an upgrade). Safe to run again.
set -e
@ACCOUNT@
if [ "$1" = configure ]; then
    # An ordinary tock account may have appeared since preinst.
    refuse_foreign_account configure
    for g in gpio i2c spi; do
        getent group "$g" >/dev/null || addgroup --quiet --system "$g"
    done
    if ! getent passwd tock >/dev/null; then
        adduser --quiet --system --group --home /var/lib/tock --no-create-home \
            --shell /usr/sbin/nologin tock
    elif [ "$(getent shadow tock | cut -d: -f8)" = 1 ]; then
        # Locked (expired) by the purge of an earlier install: in use again.
        usermod --expiredate '' tock
    fi
    for g in gpio i2c spi; do
        # Does nothing when tock is already a member.
        adduser --quiet tock "$g" >/dev/null
    done
    if command -v tock-web >/dev/null; then
        # The web page's user: the tock group only, to reach the control socket.
        getent passwd tock-web >/dev/null || adduser --quiet --system --group --home /var/lib/tock-web \
            --no-create-home --shell /usr/sbin/nologin tock-web
        adduser --quiet tock-web tock >/dev/null
    fi

    # Device permissions now rather than at the next boot.
    if [ -S /run/udev/control ] && command -v udevadm >/dev/null; then
        udevadm control --reload-rules || true
        udevadm trigger --action=add --subsystem-match=gpio --subsystem-match=i2c-dev \
            --subsystem-match=spidev --subsystem-match=pwm || true
    fi
fi

units="tock.service tock-update-check.timer"
[ ! -e /lib/systemd/system/tock-web.service ] || units="$units tock-web.service"
if [ "$1" = configure ] || [ "$1" = abort-upgrade ] || [ "$1" = abort-deconfigure ] || [ "$1" = abort-remove ]; then
    for unit in $units; do
        if command -v deb-systemd-helper >/dev/null; then
            # Undo the mask postrm leaves after "remove".
            deb-systemd-helper unmask "$unit" >/dev/null || true
            # Enabled on the first install; an administrator's
            # "systemctl disable tock" survives upgrades.
            if deb-systemd-helper --quiet was-enabled "$unit"; then
                deb-systemd-helper enable "$unit" >/dev/null || true
            else
                deb-systemd-helper update-state "$unit" >/dev/null || true
            fi
        elif [ -z "$2" ] && command -v systemctl >/dev/null; then
            systemctl enable "$unit" >/dev/null 2>&1 || true
        fi
    done
    if [ -d /run/systemd/system ]; then
        systemctl --system daemon-reload >/dev/null || true
        # Start on the first install, restart on an upgrade (tock resumes
        # from /var/lib/tock/state.json). Both skip a disabled unit.
        if [ -n "$2" ]; then action=restart; else action=start; fi
        for unit in $units; do
            if command -v deb-systemd-invoke >/dev/null; then
                deb-systemd-invoke "$action" "$unit" >/dev/null || true
            elif systemctl --quiet is-enabled "$unit" 2>/dev/null; then
                systemctl "$action" "$unit" || true
            fi
        done
    fi
fi
exit 0
EOF

cat > "$pkg/DEBIAN/prerm" <<'EOF'
#!/bin/sh
# tock prerm: stop the service before its files go (postinst of the new
# version starts it again on an upgrade).
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    for unit in tock-update-check.timer tock-web.service tock.service; do
        if command -v deb-systemd-invoke >/dev/null; then
            deb-systemd-invoke stop "$unit" >/dev/null || true
        else
            systemctl stop "$unit" >/dev/null 2>&1 || true
        fi
    done
fi
exit 0
EOF

cat > "$pkg/DEBIAN/postrm" <<'EOF'
#!/bin/sh
# tock postrm: forget the service on remove; on purge also the state, and
# lock the tock account. The account and its group are not deleted: files
# may still be owned by their ids (/etc/tock, backups, a person's copies),
# and a later account given the same ids would own them. Reinstalling
# unlocks the account (postinst). The shared gpio/i2c/spi groups stay.
set -e
@ACCOUNT@
if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null 2>&1 || true
fi
if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper mask tock.service >/dev/null || true
    deb-systemd-helper mask tock-web.service >/dev/null || true
    deb-systemd-helper mask tock-update-check.timer >/dev/null || true
fi
if [ "$1" = purge ]; then
    if command -v deb-systemd-helper >/dev/null; then
        for unit in tock.service tock-web.service tock-update-check.timer; do
            deb-systemd-helper purge "$unit" >/dev/null || true
            deb-systemd-helper unmask "$unit" >/dev/null || true
        done
    fi
    # The paired browsers' tokens go with the state.
    rm -rf /var/lib/tock /run/tock /var/lib/tock-web
    rmdir /etc/tock 2>/dev/null || true
    # Only the package's own system account: a person's account named
    # tock (the package refused it) is not touched.
    if getent passwd tock >/dev/null && [ -z "$(tock_account_foreign)" ] && command -v usermod >/dev/null; then
        # Password locked and account expired: no login, no su, no cron.
        usermod --lock --expiredate 1 tock \
            || echo "tock postrm: could not lock the account tock; lock it with: usermod --lock --expiredate 1 tock" >&2
    fi
fi
if [ "$1" = remove ] || [ "$1" = purge ]; then
    if [ -S /run/udev/control ] && command -v udevadm >/dev/null; then
        udevadm control --reload-rules || true
    fi
fi
exit 0
EOF
for script in preinst postinst postrm; do
  sed -i -e "/^@ACCOUNT@\$/r $work/account.sh" -e '/^@ACCOUNT@$/d' "$pkg/DEBIAN/$script"
done
chmod 0755 "$pkg/DEBIAN/preinst" "$pkg/DEBIAN/postinst" "$pkg/DEBIAN/prerm" "$pkg/DEBIAN/postrm"

mkdir -p "$outdir"
# --root-owner-group: every file root:root whoever builds. xz at level 9:
# its 64 MiB window spans both programs (each about 57 MB, most of it the
# same Swift runtime and Foundation), which level 3's 4 MiB and the
# default's 8 MiB do not: the arm64 package is 16.1 MB instead of 32.7 MB
# (level 3) or 29.0 MB (level 6), for 64 s of compression instead of 28 s or 53 s
# on this build machine. What every box downloads at each upgrade is
# halved; unpacking needs 65 MiB of memory (a Pi Zero 2 W has 512).
dpkg-deb --root-owner-group -Zxz -z9 --build "$pkg" "$deb.tmp" >/dev/null
mv -f "$deb.tmp" "$deb"
echo "$deb"
