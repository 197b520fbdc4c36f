#!/usr/bin/env bash
# A signing key made for one test run and thrown away with it: DIR/gnupg
# holds the secret half, DIR/key.pgp the public half (a keyring for apt's
# Signed-By, or TOCK_REPO_KEYRING for deploy/repo/repo.sh).
#
#   Tests/image/throwaway-key.sh DIR "NAME"
#
# An agent left running for DIR by an earlier run is stopped first (its
# socket would be gone with the directory). gpg's own words are shown if
# making the key fails twice.
set -euo pipefail
dir=${1:?usage: throwaway-key.sh DIR NAME} name=${2:?usage: throwaway-key.sh DIR NAME}
[ ! -d "$dir/gnupg" ] || GNUPGHOME=$dir/gnupg gpgconf --kill gpg-agent 2>/dev/null || true
rm -rf "$dir"; mkdir -p "$dir"; mkdir -m 700 "$dir/gnupg"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for try in 1 2; do
  if GNUPGHOME=$dir/gnupg gpg --batch -q --passphrase '' --quick-gen-key "$name <test@invalid>" ed25519 sign 1d 2> "$err"; then
    break
  fi
  echo "throwaway-key: gpg could not make the key (try $try): $(tr '\n' ' ' < "$err")" >&2
  [ "$try" = 1 ] || exit 1
  GNUPGHOME=$dir/gnupg gpgconf --kill gpg-agent 2>/dev/null || true
  rm -rf "$dir/gnupg"; mkdir -m 700 "$dir/gnupg"
done
GNUPGHOME=$dir/gnupg gpg -q --export > "$dir/key.pgp"
[ -s "$dir/key.pgp" ] || { echo "throwaway-key: no public key exported to $dir/key.pgp" >&2; exit 1; }
GNUPGHOME=$dir/gnupg gpgconf --kill gpg-agent 2>/dev/null || true
