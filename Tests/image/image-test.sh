#!/usr/bin/env bash
# make image-test: the image of make image under QEMU's raspi3b
# (Tests/image/image_test.py), with two repositories served from this
# machine for the update phase: good/ signed by the project key, holding the
# image's tock (N) and the same package as N+1 (version +imagetest1,
# repacked: the upgrade's path, the maintainer scripts' restart, is what is
# tested), and wrong/ signed by a throwaway key.
#
#   Tests/image/image-test.sh [image_test.py options]
# IMAGE_TEST_CUTS (default 10): power cuts. Logs: .cache/image/test/ (IMAGE_TEST_WORK:
# another directory, so that two runs can share the machine).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=deploy/image/lib.sh
. "$repo/deploy/image/lib.sh"
version=$(tock_version)
img=$IMAGE_CACHE/tock-$version-raspi-arm64.img
[ -f "$img" ] || { echo "image-test: no $img (make image)" >&2; exit 1; }
deb=$(ls -t "$repo"/.build/deb/tock_"$version"_arm64.deb | head -1)
work=${IMAGE_TEST_WORK:-$IMAGE_CACHE/test}
rm -rf "$work"; mkdir -p "$work/repos"
# The update phase's repositories: only when it runs (the phases asked
# with --phases, all by default).
phases=boot,page,broken,cuts,update
for ((i = 1; i < $#; i++)); do [ "${!i}" != --phases ] || { j=$((i + 1)); phases=${!j}; }; done
update=()
if [[ ,$phases, == *,update,* ]]; then
  n1=$version+imagetest1
  x=$work/n1; dpkg-deb -R "$deb" "$x"
  sed -i "s/^Version: .*/Version: $n1/" "$x/DEBIAN/control"
  dpkg-deb -b -Zxz "$x" "$work/tock_${n1}_arm64.deb" >/dev/null; rm -rf "$x"
  update=(--repo-root "$work/repos" --version-n1 "$n1")
  if bash "$repo/deploy/repo/repo.sh" "$work/repos/good" "$deb" "$work/tock_${n1}_arm64.deb"; then :; else
    echo "image-test: no project signing key here: the update phase is left out" >&2
    update=()
    set -- --phases "${phases/update/}" "$@"
  fi
  # The wrong key: made here, thrown away with the run.
  g=$work/wrong-gnupg; mkdir -m 700 "$g"
  GNUPGHOME=$g gpg --batch -q --passphrase '' --quick-gen-key "not the Tock key <x@invalid>" ed25519 sign 1d 2>/dev/null
  GNUPGHOME=$g gpg -q --export > "$work/wrong.pgp"
  TOCK_REPO_GNUPGHOME=$g TOCK_REPO_KEYRING=$work/wrong.pgp bash "$repo/deploy/repo/repo.sh" "$work/repos/wrong" "$deb" "$work/tock_${n1}_arm64.deb"
fi
exec python3 "$here/image_test.py" --image "$img" --work "$work" --cuts "${IMAGE_TEST_CUTS:-10}" ${update[@]+"${update[@]}"} "$@"
