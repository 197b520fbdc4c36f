#!/usr/bin/env bash
# A signing key made for one test run and thrown away with it: DIR/gnupg
# holds the secret half, DIR/key.pgp the public half (a keyring for apt's
# Signed-By, or TOCK_REPO_KEYRING for deploy/repo/repo.sh).
#
#   Tests/image/throwaway-key.sh DIR "NAME"
set -euo pipefail
dir=${1:?usage: throwaway-key.sh DIR NAME} name=${2:?usage: throwaway-key.sh DIR NAME}
rm -rf "$dir"; mkdir -p "$dir"; mkdir -m 700 "$dir/gnupg"
GNUPGHOME=$dir/gnupg gpg --batch -q --passphrase '' --quick-gen-key "$name <test@invalid>" ed25519 sign 1d 2>/dev/null
GNUPGHOME=$dir/gnupg gpg -q --export > "$dir/key.pgp"
GNUPGHOME=$dir/gnupg gpgconf --kill gpg-agent 2>/dev/null || true
