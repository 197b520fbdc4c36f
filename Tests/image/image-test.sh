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
# The update phase's repositories, when it runs (alone or in the short
# phase): good/ signed by the key of TOCK_REPO_GNUPGHOME (repo.sh: the
# project key by default; make image-smoke builds its image trusting a
# throwaway key instead and passes that), dated as the image was built (a
# box's clock starts there), and wrong/ signed by another throwaway key.
phases=boot,page,broken,cuts,update
for ((i = 1; i < $#; i++)); do [ "${!i}" != --phases ] || { j=$((i + 1)); phases=${!j}; }; done
update=()
if [[ ,$phases, == *,update,* || ,$phases, == *,short,* ]]; then
  n1=$version+imagetest1
  # N+1: the package's own members with the version changed in its
  # control file alone (data.tar.xz as built, not compressed again).
  x=$work/n1; mkdir -p "$x/control"
  (cd "$x" && ar x "$deb" && tar -xf control.tar.* -C control)
  sed -i "s/^Version: .*/Version: $n1/" "$x/control/control"
  (cd "$x" && rm control.tar.* && tar --owner=0 --group=0 --numeric-owner -C control -cJf control.tar.xz . \
    && ar rc "$work/tock_${n1}_arm64.deb" debian-binary control.tar.xz data.tar.*)
  rm -rf "$x"
  [ "$(dpkg-deb -f "$work/tock_${n1}_arm64.deb" Version)" = "$n1" ] || { echo "image-test: the N+1 package was not made" >&2; exit 1; }
  update=(--repo-root "$work/repos" --version-n1 "$n1")
  epoch=$(cat "${img%.img}.epoch" 2>/dev/null || true)
  if SOURCE_DATE_EPOCH=${epoch:-${SOURCE_DATE_EPOCH:-}} bash "$repo/deploy/repo/repo.sh" "$work/repos/good" "$deb" "$work/tock_${n1}_arm64.deb"; then :
  elif [[ ,$phases, == *,short,* ]]; then
    echo "image-test: the short phase's update needs the key its image trusts (TOCK_REPO_GNUPGHOME; make image-smoke makes one)" >&2
    exit 1
  else
    echo "image-test: no project signing key here: the update phase is left out" >&2
    update=()
    set -- --phases "${phases/update/}" "$@"
  fi
  bash "$here/throwaway-key.sh" "$work/wrong-key" "not the Tock key"
  SOURCE_DATE_EPOCH=${epoch:-${SOURCE_DATE_EPOCH:-}} TOCK_REPO_GNUPGHOME=$work/wrong-key/gnupg TOCK_REPO_KEYRING=$work/wrong-key/key.pgp \
    bash "$repo/deploy/repo/repo.sh" "$work/repos/wrong" "$deb" "$work/tock_${n1}_arm64.deb"
fi
exec python3 "$here/image_test.py" --image "$img" --work "$work" --cuts "${IMAGE_TEST_CUTS:-10}" ${update[@]+"${update[@]}"} "$@"
