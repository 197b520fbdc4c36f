#!/usr/bin/env bash
# Home Assistant's root for Tests/ha: Debian sid (minbase) with Debian's
# Python 3.14 and Home Assistant's virtualenv at /venv, cached under
# CACHE_DIR/ha/ by the Home Assistant version and the Debian packages
# (rebuilt when one changes); when only the requirements changed, pip
# installs them into the cached virtualenv (a requirement removed stays
# installed, unused):
#
#   bash Tests/ha/root.sh CACHE_DIR VERSION     -> prints the root's path
#
# Home Assistant 2026.3 and later require Python 3.14.2 or later; Debian 12
# has 3.11, sid has 3.14. Needs root (mmdebstrap, chroot).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=deploy/cross/lib.sh
. "$here/../../deploy/cross/lib.sh"   # debian_mirror
cache=$1 version=$2
die() { printf 'ha-root: ERROR: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap and chroot need it)"
# python3.14-venv brings ensurepip (pip for the venv); ca-certificates for
# PyPI. Every compiled package of the requirements has a cp314 manylinux
# wheel: no compiler (PyQRCode, pure Python, comes as a source archive).
packages=python3.14,python3.14-venv,ca-certificates
root=$cache/ha/sid-python3.14-ha$version
base="$version $packages"
key="$base $(md5sum < "$here/requirements.txt" | cut -c1-12)"
if [ -e "$root/.done" ] && [ "$(cat "$root/.done")" = "$key" ]; then echo "$root"; exit 0; fi
if [ -e "$root/.done" ] && [ "$(cut -d' ' -f1-2 "$root/.done")" = "$base" ]; then
  t=$(date +%s)
  echo "ha-root: requirements changed: pip install -r requirements.txt into the cached virtualenv" >&2
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  cp "$here/requirements.txt" "$root/requirements.txt"
  bash "$here/in-root.sh" "$root" env PIP_CERT=/etc/ssl/certs/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
    /venv/bin/pip install -q "homeassistant==$version" -r /requirements.txt >&2 \
    || die "pip install -r requirements.txt into $root/venv failed"
  rm -rf "$root/root/.cache/pip"
  echo "$key" > "$root/.done"
  echo "ha-root: virtualenv updated in $(( $(date +%s) - t )) s" >&2
  echo "$root"
  exit 0
fi
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing (apt-get install mmdebstrap)"
t=$(date +%s)
tmp=$root.tmp
rm -rf "$root"
mkdir -p "$cache/ha"
# The Debian part is kept when only the virtualenv failed.
if [ "$(cat "$tmp/.debian" 2>/dev/null)" != "$packages" ]; then
  rm -rf "$tmp"
  echo "ha-root: mmdebstrap sid with $packages" >&2
  mmdebstrap --variant=minbase --aptopt='Acquire::Check-Valid-Until "false"' --include="$packages" \
    sid "$tmp" "$(debian_mirror)" > "$cache/ha/root.log" 2>&1 \
    || { tail -15 "$cache/ha/root.log" >&2; die "mmdebstrap failed (log: $cache/ha/root.log)"; }
  echo "$packages" > "$tmp/.debian"
fi
rm -rf "$tmp/venv"
echo "ha-root: $(chroot "$tmp" python3.14 --version) in $(( $(date +%s) - t )) s; pip install homeassistant==$version" >&2
# pip inside the root resolves PyPI with this machine's resolver and CA bundle.
cp /etc/resolv.conf "$tmp/etc/resolv.conf"
cp "$here/requirements.txt" "$tmp/requirements.txt"
bash "$here/in-root.sh" "$tmp" python3.14 -m venv /venv >&2
bash "$here/in-root.sh" "$tmp" env PIP_CERT=/etc/ssl/certs/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
  /venv/bin/pip install -q "homeassistant==$version" -r /requirements.txt >&2 \
  || die "pip install homeassistant==$version failed"
rm -rf "$tmp/root/.cache/pip"
echo "$key" > "$tmp/.done"
mv "$tmp" "$root"
echo "ha-root: ready in $(( $(date +%s) - t )) s, $(du -sh "$root" | cut -f1) ($(du -sh "$root/venv" | cut -f1) of it the venv)" >&2
echo "$root"
