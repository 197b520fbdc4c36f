#!/usr/bin/env bash
# For an install inside the guest (the arm64 systemd test): the packages a
# .deb needs that a root file system lacks, as a local apt repository in it,
# and that repository as its only apt source (the guest has no network).
#
#   local-repo.sh ROOT DEB [PACKAGE...]
#
# apt resolves DEB's dependencies (and the PACKAGEs from Debian, if any:
# what the test needs beside it) against ROOT's dpkg database and Debian
# $TARGET_SUITE (the cross build's private lists, deploy/cross/lib.sh); the
# packages it would install go to ROOT/var/local/tock-deps with a Packages
# index; ROOT/etc/apt/sources.list names only that directory; the
# original is kept as sources.list.orig. Prints the packages.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=deploy/cross/lib.sh
. "$repo/deploy/cross/lib.sh"
root=${1:?usage: local-repo.sh ROOT DEB [PACKAGE...]}
deb=$(realpath "${2:?usage: local-repo.sh ROOT DEB [PACKAGE...]}")
shift 2
die() { printf 'local-repo: ERROR: %s\n' "$*" >&2; exit 1; }
[ -f "$root/var/lib/dpkg/status" ] || die "$root has no dpkg database"
command -v dpkg-scanpackages >/dev/null || die "dpkg-scanpackages is missing (apt-get install dpkg-dev)"

xapt_setup || die "no package lists for $TARGET_SUITE"
arch=$(dpkg-deb -f "$deb" Architecture)
# What `apt install ./tock_*.deb` would install on ROOT (simulated here).
plan=$(xapt-get -s -q -o "APT::Architecture=$arch" -o "Dir::State::status=$root/var/lib/dpkg/status" \
         -o "APT::Default-Release=$TARGET_SUITE" install "$deb" "$@" 2>&1) || { echo "$plan" >&2; die "apt cannot resolve $deb against $root"; }
mapfile -t wanted < <(sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' <<<"$plan" | grep -v '^tock=')
dir=$root/var/local/tock-deps
rm -rf "$dir"; mkdir -p "$dir"
if [ ${#wanted[@]} -gt 0 ]; then
  (cd "$dir" && xapt-get -q -o "APT::Architecture=$arch" download "${wanted[@]}" > /dev/null) || die "apt-get download ${wanted[*]} failed"
fi
(cd "$dir" && dpkg-scanpackages --multiversion . /dev/null > Packages 2>/dev/null)
[ -f "$root/etc/apt/sources.list.orig" ] || mv "$root/etc/apt/sources.list" "$root/etc/apt/sources.list.orig" 2>/dev/null || true
echo "deb [trusted=yes] file:/var/local/tock-deps ./" > "$root/etc/apt/sources.list"
echo "${wanted[*]}"
