#include "CMosquitto.h"
#include <dlfcn.h>
#include <stdio.h>

struct tock_mosquitto_api tock_mosquitto;
static bool loaded;

int tock_mosquitto_load(const char *library, char *error, size_t size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, size, "%s", dlerror());
        return -1;
    }
    struct tock_mosquitto_api api;
#define TOCK_MOSQUITTO_RESOLVE(name) \
    api.name = (__typeof__(api.name))dlsym(handle, "mosquitto_" #name); \
    if (!api.name) { snprintf(error, size, "%s has no mosquitto_" #name, library); return -1; }
    TOCK_MOSQUITTO_FUNCTIONS(TOCK_MOSQUITTO_RESOLVE)
#undef TOCK_MOSQUITTO_RESOLVE
    // The first library loaded stays: clients made since call into it.
    if (!loaded) {
        tock_mosquitto = api;
        loaded = true;
    }
    return 0;
}
