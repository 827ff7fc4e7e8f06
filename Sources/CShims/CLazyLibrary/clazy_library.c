#include "CLazyLibrary.h"
#include <dlfcn.h>
#include <stdio.h>

bool clazy_load(const char *library, const char *prefix, const char *const *names, void **const *slots,
                size_t count, char *error, size_t error_size) {
    // RTLD_LOCAL: the library's symbols stay out of the global scope (only these slots reach them).
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(error, error_size, "%s", why ? why : library);
        return false;
    }
    char name[128];
    for (size_t i = 0; i < count; i++) {
        snprintf(name, sizeof name, "%s%s", prefix, names[i]);
        *slots[i] = dlsym(handle, name);
        if (!*slots[i]) {
            snprintf(error, error_size, "%s has no function %s", library, name);
            return false;
        }
    }
    return true;
}

bool clazy_load_once(struct clazy_library *lazy, char *error, size_t error_size) {
    pthread_mutex_lock(&lazy->lock);
    if (lazy->state == 0) {
        bool loaded = clazy_load(lazy->library, lazy->prefix, lazy->names, lazy->slots, lazy->count,
                                 lazy->error, sizeof lazy->error);
        lazy->state = loaded ? 1 : -1;
    }
    bool loaded = lazy->state == 1;
    pthread_mutex_unlock(&lazy->lock);
    if (!loaded) snprintf(error, error_size, "%s", lazy->error);
    return loaded;
}
