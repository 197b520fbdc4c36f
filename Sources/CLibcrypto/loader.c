#include "CLibcrypto.h"
#include <dlfcn.h>
#include <stdio.h>

typedef int (*pbkdf2_fn)(const char *, int, const unsigned char *, int, int, int, unsigned char *);

int tock_pbkdf2_hmac_sha1(const char *library,
                          const unsigned char *pass, int passlen,
                          const unsigned char *salt, int saltlen,
                          int iterations, int keylen, unsigned char *out,
                          char *error, size_t size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, size, "%s", dlerror());
        return -1;
    }
    pbkdf2_fn pbkdf2 = (pbkdf2_fn)dlsym(handle, "PKCS5_PBKDF2_HMAC_SHA1");
    if (!pbkdf2) {
        snprintf(error, size, "%s has no PKCS5_PBKDF2_HMAC_SHA1", library);
        dlclose(handle);
        return -1;
    }
    int ok = pbkdf2((const char *)pass, passlen, salt, saltlen, iterations, keylen, out);
    dlclose(handle);
    if (ok != 1) {
        snprintf(error, size, "PKCS5_PBKDF2_HMAC_SHA1 of %s failed", library);
        return -1;
    }
    return 0;
}
