#!/usr/bin/env bash
# Install Tock as a systemd service on this machine (without a .deb).
#
#   sudo deploy/install.sh                 build (release) and install, enable and start
#   sudo deploy/install.sh --binary PATH   install this tock binary instead of building
#   sudo deploy/install.sh --uninstall     stop, disable, remove binary, unit and udev rule
#                                          (keeps /etc/tock and /var/lib/tock)
#   sudo deploy/install.sh --uninstall --purge
#                                          also remove /etc/tock/config.yaml, /var/lib/tock,
#                                          and lock the tock account (kept, as the package does)
#   deploy/install.sh --root DIR [...]     install the files under DIR only (DESTDIR=DIR
#                                          does the same): no user or group, no udevadm,
#                                          no systemctl; needs no root
#
#   --prefix PREFIX   where the binary goes (default /usr: /usr/bin/tock); the
#                     installed unit's ExecStart follows it
#
# What goes where:
#   PREFIX/bin/tock                          the program (0755)
#   /etc/tock/config.yaml                    only if absent: a configuration is never overwritten
#   /lib/systemd/system/tock.service         the unit
#   /lib/udev/rules.d/99-tock-gpio.rules     gpio/i2c/spi group access to the devices
#   /usr/share/doc/tock/README.md, docs/*.md, config.yaml
#                                            the documentation and the example configuration
#
# The paths are the ones the .deb (make deb) uses, so the package can later
# replace a script install. The account rules are the package's too: the
# tock user and group are created as system ones; an existing ordinary
# account named tock (a person's) is refused, never taken over; a purge
# locks the account rather than deleting it. Running the script again
# changes only what differs; the service is restarted only when the binary
# or the unit changed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

root=${DESTDIR:-}
prefix=/usr
binary=
action=install
purge=0
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --root) root=${2:?--root DIR}; shift 2 ;;
    --root=*) root=${1#*=}; shift ;;
    --prefix) prefix=${2:?--prefix PREFIX}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --binary) binary=${2:?--binary PATH}; shift 2 ;;
    --binary=*) binary=${1#*=}; shift ;;
    --uninstall) action=uninstall; shift ;;
    --purge) purge=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $prefix in /*) ;; *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 2 ;; esac
if [ "$purge" = 1 ] && [ "$action" != uninstall ]; then
  echo "install.sh: --purge goes with --uninstall" >&2; exit 2
fi
if [ -n "$root" ]; then
  mkdir -p "$root"
  root=$(cd "$root" && pwd)
  [ "$root" != / ] || root=
fi
# live: this machine's system (users, udev, systemd); otherwise files only.
live=1
[ -z "$root" ] || live=0
if [ "$live" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (sudo $0 ...), or use --root DIR to install into a directory" >&2
  exit 1
fi

bin_path=$prefix/bin/tock
unit_path=/lib/systemd/system/tock.service
rule_path=/lib/udev/rules.d/99-tock-gpio.rules
conf_dir=/etc/tock
conf_path=$conf_dir/config.yaml
doc_dir=/usr/share/doc/tock
state_dir=/var/lib/tock

say() { echo "tock install: $*"; }

# The tock account is tock's only when it is a system account: the user's
# uid and the group's gid in the system ranges of /etc/adduser.conf (100-999
# by default). The same rule as the package's maintainer scripts
# (build-deb.sh).
adduser_conf() {  # adduser_conf KEY DEFAULT
  local v
  v=$(sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*[\"']\{0,1\}\([0-9][0-9]*\)[\"']\{0,1\}[[:space:]]*\$/\1/p" \
      /etc/adduser.conf 2>/dev/null | tail -n 1)
  echo "${v:-$2}"
}
# tock_account_foreign: what is wrong, and what to do, when the tock user or
# group exists and is not a system one; nothing otherwise.
tock_account_foreign() {
  local first last entry id
  first=$(adduser_conf FIRST_SYSTEM_UID 100) last=$(adduser_conf LAST_SYSTEM_UID 999)
  if entry=$(getent passwd tock) && id=$(cut -d: -f3 <<<"$entry") && { [ "$id" -lt "$first" ] || [ "$id" -gt "$last" ]; }; then
    echo "the user account tock (uid $id, home $(cut -d: -f6 <<<"$entry")) is not a system account"
    echo "(system accounts have uids $first-$last: FIRST_SYSTEM_UID and LAST_SYSTEM_UID in /etc/adduser.conf)."
    echo "The tock service runs as a system account of its own, which this script creates;"
    echo "it does not take over a person's account. Rename that account, for example"
    echo "    usermod --login tock-old --move-home --home /home/tock-old tock"
    echo "    groupmod --new-name tock-old tock"
    echo "or remove it (deluser tock), then run this script again."
    return
  fi
  first=$(adduser_conf FIRST_SYSTEM_GID 100) last=$(adduser_conf LAST_SYSTEM_GID 999)
  if entry=$(getent group tock) && id=$(cut -d: -f3 <<<"$entry") && { [ "$id" -lt "$first" ] || [ "$id" -gt "$last" ]; }; then
    echo "the group tock (gid $id) is not a system group"
    echo "(system groups have gids $first-$last: FIRST_SYSTEM_GID and LAST_SYSTEM_GID in /etc/adduser.conf)."
    echo "The tock service runs with a system group of its own, which this script creates;"
    echo "it does not take over an existing group. Rename that group"
    echo "(groupmod --new-name tock-old tock) or remove it (delgroup tock), then run this script again."
  fi
}
systemd_running() { [ "$live" = 1 ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; }
udev_running() { [ "$live" = 1 ] && command -v udevadm >/dev/null && [ -S /run/udev/control ]; }

# A file owned by an installed tock package is the package's business.
if [ "$live" = 1 ] && command -v dpkg-query >/dev/null \
    && dpkg-query -W -f='${Status}' tock 2>/dev/null | grep -q 'install ok installed'; then
  echo "install.sh: the tock Debian package is installed; use apt (apt remove tock / apt install ./tock_*.deb) instead of this script" >&2
  exit 1
fi

changed=0    # the binary or the unit changed: restart the service

# put SRC DEST MODE: install SRC as $root/DEST unless it is already there
# with the same content and mode.
put() {
  local src=$1 dest=$root$2 mode=$3
  if [ -f "$dest" ] && cmp -s "$src" "$dest" && [ "$(stat -c %a "$dest")" = "${mode#0}" ]; then
    return 1
  fi
  mkdir -p "$(dirname "$dest")"
  install -m "$mode" "$src" "$dest.tock-new"
  mv -f "$dest.tock-new" "$dest"
  say "installed $2"
}

remove() {
  local path=$root$1
  if [ -e "$path" ] || [ -L "$path" ]; then
    rm -rf "$path"
    say "removed $1"
  fi
}

# ---------------------------------------------------------------- uninstall
if [ "$action" = uninstall ]; then
  if systemd_running; then
    systemctl disable --now tock.service 2>/dev/null || true
  elif [ "$live" = 1 ] && command -v systemctl >/dev/null; then
    systemctl disable tock.service 2>/dev/null || true
  fi
  remove "$bin_path"
  remove "$unit_path"
  remove "$rule_path"
  remove "$doc_dir"
  if [ "$purge" = 1 ]; then
    # The configuration, not the files an owner put next to it (an MQTT
    # password file, say): those stay, with /etc/tock.
    remove "$conf_path"
    if [ -d "$root$conf_dir" ] && ! rmdir "$root$conf_dir" 2>/dev/null; then
      say "kept $conf_dir: it holds files tock did not install ($(ls -A "$root$conf_dir" | paste -sd' '))"
    fi
    remove "$state_dir"
    # The tock user and group stay, locked: files may still be owned by
    # their ids, and a later account given the same ids would own them.
    # A person's account named tock (refused at install) is not touched.
    if [ "$live" = 1 ] && getent passwd tock >/dev/null; then
      if [ -z "$(tock_account_foreign)" ]; then
        usermod --lock --expiredate 1 tock
        say "locked the user tock (kept, with the group tock; installing again unlocks it)"
      else
        say "left the account tock as it is: it is not tock's system account"
      fi
    fi
  fi
  if systemd_running; then systemctl daemon-reload; fi
  if udev_running; then udevadm control --reload-rules; fi
  say "uninstalled$([ "$purge" = 1 ] && echo ", configuration and state purged" || echo "; kept $conf_dir and $state_dir (--purge removes them)")"
  exit 0
fi

# An ordinary account named tock is a person's: refused before anything is
# built or installed.
if [ "$live" = 1 ] && problem=$(tock_account_foreign) && [ -n "$problem" ]; then
  echo "install.sh: refusing to install: $problem" >&2
  exit 1
fi

# ---------------------------------------------------------------- build
if [ -z "$binary" ]; then
  # The Swift runtime is linked statically: the service runs as the tock
  # user under ProtectHome=, which would hide a toolchain installed in a
  # home directory (swiftly), and the binary then needs only system libraries.
  swift=${SWIFT:-$(command -v swift || true)}
  if [ -z "$swift" ]; then
    echo "install.sh: swift is not in PATH (sudo resets PATH): run 'make install', or 'sudo env PATH=\"\$PATH\" $0', or give --binary PATH" >&2
    exit 1
  fi
  build=(build -c release --static-swift-stdlib --product tock --scratch-path "$repo/.build-release" --package-path "$repo")
  say "building: swift ${build[*]}"
  if [ "$(id -u)" = 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    # Build as the person who ran sudo, so the checkout does not fill with
    # files only root can delete.
    user_home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
    runuser -u "$SUDO_USER" -- env HOME="$user_home" PATH="$PATH" "$swift" "${build[@]}"
  else
    "$swift" "${build[@]}"
  fi
  binary=$repo/.build-release/release/tock
fi
[ -x "$binary" ] || { echo "install.sh: $binary is not an executable file" >&2; exit 1; }

# A configuration already in place must suit the binary being installed:
# tock refuses a bad file and the service would not start.
if [ -f "$root$conf_path" ]; then
  if ! problems=$("$binary" config check "$root$conf_path" 2>&1); then
    echo "install.sh: $conf_path does not suit this version of tock; fix it and run again:" >&2
    echo "$problems" >&2
    exit 1
  fi
fi

# ---------------------------------------------------------------- users and groups
if [ "$live" = 1 ]; then
  for g in gpio i2c spi; do
    if ! getent group "$g" >/dev/null; then groupadd --system "$g"; say "created the group $g"; fi
  done
  if ! getent group tock >/dev/null; then groupadd --system tock; say "created the group tock"; fi
  if ! getent passwd tock >/dev/null; then
    useradd --system --gid tock --groups gpio,i2c,spi --home-dir "$state_dir" --no-create-home \
      --shell /usr/sbin/nologin --comment "Tock timer appliance" tock
    say "created the system user tock"
  else
    if [ "$(getent shadow tock | cut -d: -f8)" = 1 ]; then
      # Locked (expired) by an earlier --purge: in use again.
      usermod --expiredate '' tock
      say "unlocked the user tock"
    fi
    have=" $(id -nG tock) "
    for g in gpio i2c spi; do
      case $have in *" $g "*) ;; *) usermod -a -G "$g" tock; say "added tock to the group $g" ;; esac
    done
  fi
fi

# ---------------------------------------------------------------- files
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The unit names /usr/bin/tock; another prefix is written into ExecStart.
sed "s|/usr/bin/tock |$bin_path |" "$here/tock.service" > "$tmp/tock.service"

if put "$binary" "$bin_path" 0755; then changed=1; fi
if put "$tmp/tock.service" "$unit_path" 0644; then changed=1; fi
if put "$here/99-tock-gpio.rules" "$rule_path" 0644; then rule_changed=1; else rule_changed=0; fi
put "$repo/README.md" "$doc_dir/README.md" 0644 || true
for page in "$repo"/docs/*.md; do
  [ -f "$page" ] && { put "$page" "$doc_dir/docs/${page##*/}" 0644 || true; }
done
for page in "$root$doc_dir"/docs/*.md; do   # a page the repository no longer has
  [ -f "$page" ] && [ ! -f "$repo/docs/${page##*/}" ] && remove "$doc_dir/docs/${page##*/}"
done
put "$here/config.yaml" "$doc_dir/config.yaml" 0644 || true
if [ -e "$root$conf_path" ]; then
  if ! cmp -s "$here/config.yaml" "$root$conf_path"; then
    say "kept $conf_path as it is (the current example is $doc_dir/config.yaml)"
  fi
else
  put "$here/config.yaml" "$conf_path" 0644 || true
fi

# ---------------------------------------------------------------- udev and systemd
if [ "$live" = 0 ]; then
  say "files installed under $root (no users, udev or systemd changes with --root)"
  exit 0
fi
if udev_running; then
  if [ "$rule_changed" = 1 ]; then
    udevadm control --reload-rules
    udevadm trigger --action=add --subsystem-match=gpio --subsystem-match=i2c-dev \
      --subsystem-match=spidev --subsystem-match=pwm
    udevadm settle --timeout=10 || true
  fi
else
  say "udev is not running: the device permissions apply from the next boot"
fi
if systemd_running; then
  systemctl daemon-reload
  systemctl enable --quiet tock.service
  verb=
  if [ "$changed" = 1 ] && systemctl is-active --quiet tock.service; then verb=restart
  elif ! systemctl is-active --quiet tock.service; then verb=start; fi
  if [ -n "$verb" ]; then
    # Type=notify: this returns once tock has opened the hardware, or fails.
    if ! systemctl "$verb" tock.service; then
      systemctl --no-pager --lines=15 status tock.service || true
      echo "install.sh: installed, but tock.service did not start (journalctl -u tock); it retries every 2 s" >&2
      exit 1
    fi
    say "${verb}ed tock.service"
  fi
  systemctl --no-pager --lines=0 status tock.service || true
elif command -v systemctl >/dev/null; then
  systemctl enable --quiet tock.service
  say "systemd is not running here: tock.service is enabled and starts at the next boot"
else
  say "no systemctl: start tock yourself ($bin_path run --config $conf_path)"
fi
