#!/usr/bin/env bash
# lintian on a tock package: passes when it reports no error and no warning
# (deploy/lintian-overrides gives the reason for each tag it overrides).
#
#   Tests/deploy/lintian.sh DEB...
set -uo pipefail
command -v lintian >/dev/null || { echo "FAIL lintian: not installed (apt-get install lintian)"; exit 1; }
status=0
for deb in "$@"; do
  [ -f "$deb" ] || { echo "FAIL lintian $deb: no such package"; status=1; continue; }
  # lintian itself fails only on errors; warnings count here too.
  out=$(lintian --tag-display-limit 0 --fail-on error,warning "$deb" 2>&1)
  rc=$?
  out=$(grep -v '^running with root privileges' <<<"$out")
  if [ "$rc" = 0 ] && ! grep -Eq '^[EW]: ' <<<"$out"; then
    echo "ok   lintian $(basename "$deb"): no errors, no warnings ($(lintian --version))"
  else
    echo "FAIL lintian $(basename "$deb") (status $rc):"
    sed 's/^/     | /' <<<"$out"
    status=1
  fi
done
exit $status
