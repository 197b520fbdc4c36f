#!/usr/bin/env bash
# The project's signed apt archive (make repo; docs/updates.md).
#
#   deploy/repo/repo.sh OUTDIR DEB...
#       OUTDIR/pool/main/t/tock/*.deb, OUTDIR/dists/stable/{Release,InRelease,
#       Release.gpg}, OUTDIR/dists/stable/main/binary-{amd64,arm64}/Packages{,.gz},
#       signed with the project key (its public half is
#       deploy/repo/tock-archive-keyring.pgp, in every image's sources entry)
#   deploy/repo/repo.sh --new-key
#       makes the project key in TOCK_REPO_GNUPGHOME and writes its public
#       half to deploy/repo/tock-archive-keyring.pgp (once, by a maintainer;
#       rotation: docs/updates.md)
#
# TOCK_REPO_GNUPGHOME: the GnuPG home holding the secret key (default
# ~/.config/tock/repo-gnupg; never in this repository).
# TOCK_REPO_KEYRING: the public key to check the signature against
# (default deploy/repo/tock-archive-keyring.pgp).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { printf 'repo: ERROR: %s\n' "$*" >&2; exit 1; }
export GNUPGHOME=${TOCK_REPO_GNUPGHOME:-$HOME/.config/tock/repo-gnupg}
pub=${TOCK_REPO_KEYRING:-$here/tock-archive-keyring.pgp}

if [ "${1:-}" = --new-key ]; then
  [ ! -e "$GNUPGHOME/pubring.kbx" ] || [ -z "$(gpg --list-secret-keys 2>/dev/null)" ] || die "$GNUPGHOME already holds a key"
  mkdir -p "$GNUPGHOME"; chmod 700 "$GNUPGHOME"
  # Three years: a key that is lost still stops being trusted (docs/updates.md, rotation).
  gpg --batch --passphrase '' --quick-gen-key "Tock archive signing key <tock@localhost>" ed25519 sign 3y
  gpg --export > "$pub"
  gpg --list-keys --with-fingerprint --with-colons | awk -F: '/^fpr/ {print "repo: new key " $10; exit}'
  exit 0
fi

out=${1:?usage: repo.sh OUTDIR DEB... | --new-key}; shift
[ $# -gt 0 ] || die "no packages given (make deb, make deb ARCH=arm64)"
command -v apt-ftparchive >/dev/null || die "apt-ftparchive is missing (apt-get install apt-utils)"
fpr=$(gpg --with-colons --import-options show-only --import "$pub" | awk -F: '/^fpr/ {print $10; exit}')
gpg --list-secret-keys "$fpr" >/dev/null 2>&1 || die "the secret key $fpr is not in $GNUPGHOME (TOCK_REPO_GNUPGHOME)"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct)}
rm -rf "$out.tmp"; mkdir -p "$out.tmp/pool/main/t/tock"
for d in "$@"; do cp "$d" "$out.tmp/pool/main/t/tock/"; done
cd "$out.tmp"
for arch in amd64 arm64; do
  mkdir -p "dists/stable/main/binary-$arch"
  apt-ftparchive --arch "$arch" packages pool > "dists/stable/main/binary-$arch/Packages"
  gzip -9n -k "dists/stable/main/binary-$arch/Packages"
done
apt-ftparchive -o APT::FTPArchive::Release::Origin=Tock -o APT::FTPArchive::Release::Label=Tock \
  -o APT::FTPArchive::Release::Suite=stable -o APT::FTPArchive::Release::Codename=stable \
  -o APT::FTPArchive::Release::Architectures="amd64 arm64" -o APT::FTPArchive::Release::Components=main \
  -o APT::FTPArchive::Release::Date="$(date -u -R -d "@$SOURCE_DATE_EPOCH")" \
  release dists/stable > dists/stable/Release.tmp && mv dists/stable/Release.tmp dists/stable/Release
gpg --batch --yes -u "$fpr" --clearsign -o dists/stable/InRelease dists/stable/Release
gpg --batch --yes -u "$fpr" -abs -o dists/stable/Release.gpg dists/stable/Release
cd - >/dev/null
rm -rf "$out"; mv "$out.tmp" "$out"
echo "repo: $out signed by $fpr: $(cd "$out/pool/main/t/tock" && ls | paste -sd' ')"
