#!/usr/bin/env bash
# deploy/update/tock-update-check against repositories made here (apt-get
# and apt-cache as the box runs them, file: URIs, signed by throwaway
# keys): a newer version found, an older or equal one not, Debian's
# ordering (an epoch, "~"), a repository signed by another key refused, one
# dated after the clock refused, the image's placeholder and a missing
# entry said so, a port that never answers bounded, and a version of 5,000
# characters refused. Each result file is read back with the fields the
# service reads. No root needed; a few seconds.
#
#   Tests/deploy/update-check-test.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
check=$repo/deploy/update/tock-update-check
for t in apt-ftparchive gpg dpkg-deb python3 timeout; do
  command -v "$t" >/dev/null || { echo "update-check-test: $t is missing (apt-get install apt-utils gnupg dpkg-dev python3 coreutils)" >&2; exit 1; }
done
w=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$w"' EXIT
fail=0
arch=$(dpkg --print-architecture)

# A package named tock of the given version, a few hundred bytes.
deb() {
  local v=$1 d=$w/pkg
  rm -rf "$d"; mkdir -p "$d/DEBIAN"
  printf 'Package: tock\nVersion: %s\nArchitecture: %s\nMaintainer: t <t@invalid>\nDescription: t\n' "$v" "$arch" > "$d/DEBIAN/control"
  dpkg-deb --nocheck --root-owner-group -b "$d" "$w/tock_$(printf '%s' "$v" | cut -c1-20 | tr ':' '_')_$arch.deb" >/dev/null 2>&1
  echo "$w/tock_$(printf '%s' "$v" | cut -c1-20 | tr ':' '_')_$arch.deb"
}
# A repository NAME signed by KEY (good or wrong), dated EPOCH, with the versions given.
mkrepo() {
  local name=$1 key=$2 epoch=$3; shift 3
  local debs=() v
  for v in "$@"; do debs+=("$(deb "$v")"); done
  SOURCE_DATE_EPOCH=$epoch TOCK_REPO_GNUPGHOME=$w/$key/gnupg TOCK_REPO_KEYRING=$w/$key/key.pgp \
    bash "$repo/deploy/repo/repo.sh" "$w/repos/$name" "${debs[@]}" >/dev/null 2>&1
}
sources() { # URI -> the sources file
  printf 'Types: deb\nURIs: %s\nSuites: stable\nComponents: main\nSigned-By: %s\n' "$1" "$w/good/key.pgp" > "$w/tock.sources"
}
# Run the check with INSTALLED; assert RESULT (and LATEST, and a REASON pattern).
expect() {
  local what=$1 installed=$2 result=$3 latest=$4 reason=${5:-}
  rm -f "$w/out.json"
  local t0=$SECONDS
  TOCK_UPDATE_SOURCES=$w/tock.sources TOCK_UPDATE_RESULT=$w/out.json TOCK_UPDATE_WORK=$w/work \
    TOCK_UPDATE_INSTALLED=$installed TOCK_UPDATE_TIMEOUT=${TIMEOUT:-60} "$check" > "$w/check.log" 2>&1 || true
  if python3 - "$w/out.json" "$result" "$latest" "$reason" <<'EOF'
import json, re, sys
path, result, latest, reason = sys.argv[1:]
raw = open(path, "rb").read()
assert len(raw) < 1024, f"{len(raw)} bytes"
j = json.loads(raw)
assert j["v"] == 1 and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", j["checked"]), j
assert j["result"] == result, f'result {j["result"]!r}, wanted {result!r}: {j}'
assert j.get("latest", "") == latest, f'latest {j.get("latest")!r}, wanted {latest!r}'
assert re.search(reason, j.get("reason", "")), f'reason {j.get("reason")!r} lacks {reason!r}'
EOF
  then echo "ok   $what: $(cat "$w/out.json") ($((SECONDS - t0)) s)"
  else echo "FAIL $what: $(cat "$w/check.log")"; fail=1
  fi
}

bash "$repo/Tests/image/throwaway-key.sh" "$w/good" "Tock archive stand-in" >/dev/null
bash "$repo/Tests/image/throwaway-key.sh" "$w/wrong" "not the Tock key" >/dev/null
now=$(date +%s)
mkrepo n1 good $((now - 3600)) 0.1.0 0.1.1
mkrepo epoch good $((now - 3600)) 0.9.0 1:0.0.1
mkrepo tilde good $((now - 3600)) 0.2.0~rc1
mkrepo wrong wrong $((now - 3600)) 0.1.1
mkrepo future good $((now + 86400)) 0.1.1
mkrepo huge good $((now - 3600)) "0.1.$(head -c 5000 /dev/zero | tr '\0' '1')"
mkrepo bad good $((now - 3600)) "0.1.0 (bad)"

sources "file:$w/repos/n1"
expect "N+1 in the repository: available" 0.1.0 available 0.1.1
expect "the same version installed: current" 0.1.1 current 0.1.1
expect "a newer one installed: current" 0.2.0 current 0.1.1
sources "file:$w/repos/epoch"
expect "an epoch wins over a higher upstream version" 0.9.0 available 1:0.0.1
sources "file:$w/repos/tilde"
expect "~ sorts before the release: 0.2.0~rc1 is older than 0.2.0" 0.2.0 current "0.2.0~rc1"
expect "~: 0.2.0~rc1 is newer than 0.1.0" 0.1.0 available "0.2.0~rc1"
sources "file:$w/repos/wrong"
expect "signed by another key: refused" 0.1.0 refused "" "Signed-By.*(NO_PUBKEY|not signed|signature)"
sources "file:$w/repos/future"
expect "a Release dated after the clock: refused" 0.1.0 refused "" "clock is before.*not valid yet"
sources "file:$w/repos/huge"
expect "a version of 5,000 characters: refused" 0.1.0 invalid "" "not a Debian version of at most 64"
sources "file:$w/repos/bad"
expect "a malformed version: refused" 0.1.0 invalid "" "not a Debian version"
sources "https://tock.invalid/debian"
expect "the image's placeholder: no repository" 0.1.0 no_repository "" "tock.invalid.*IMAGE_REPO_URL"
rm -f "$w/tock.sources"
expect "no sources entry: no repository" 0.1.0 no_repository "" "no .*tock.sources"
# A port that takes the connection and never answers: bounded by the
# check's own timeout (here 8 s), not apt's.
python3 -c '
import socket, time, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True)
c = []
while True: c.append(s.accept()[0])' > "$w/port" &
for _ in $(seq 50); do [ -s "$w/port" ] && break; sleep 0.1; done
sources "http://127.0.0.1:$(cat "$w/port")/debian"
t0=$SECONDS
TIMEOUT=8 expect "a repository that never answers: unreachable, bounded" 0.1.0 unreachable "" "no answer .* within 8s"
[ $((SECONDS - t0)) -le 15 ] || { echo "FAIL the silent repository took $((SECONDS - t0)) s"; fail=1; }
exit $fail
