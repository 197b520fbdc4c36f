// libcrypto (OpenSSL 3: Debian's libssl3, libssl3t64 from Debian 13), for
// `tock setup` alone: the Wi-Fi key derived from a passphrase as
// wpa_supplicant derives it (PBKDF2-HMAC-SHA1). Opened with dlopen(3) when
// a passphrase is set, not linked: tock's service never loads it.
#pragma once
#include <stddef.h>

// PKCS5_PBKDF2_HMAC_SHA1 of `library` (e.g. "libcrypto.so.3"): 0 and
// `keylen` bytes in `out`, or -1 and why in `error`.
int tock_pbkdf2_hmac_sha1(const char *library,
                          const unsigned char *pass, int passlen,
                          const unsigned char *salt, int saltlen,
                          int iterations, int keylen, unsigned char *out,
                          char *error, size_t size);
