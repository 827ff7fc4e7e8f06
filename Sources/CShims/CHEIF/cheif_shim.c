#include "CHEIF.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static const char *const library = "libheif.so.1";

#define POINTER(type, name, parameters, arguments) type(*name) parameters;
#define POINTER_VOID(name, parameters, arguments) void(*name) parameters;
static struct {
    CHEIF_FUNCTIONS(POINTER, POINTER_VOID)
} functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "dlopen failed");
        return;
    }
#define LOOK_UP(name)                                                                  \
    *(void **)(&functions.name) = dlsym(handle, "heif_" #name);                          \
    if (!functions.name) {                                                             \
        snprintf(load_error, sizeof load_error, "%s has no function heif_" #name, library); \
        return;                                                                        \
    }
#define LOOK_UP_VALUE(type, name, parameters, arguments) LOOK_UP(name)
#define LOOK_UP_VOID(name, parameters, arguments) LOOK_UP(name)
    CHEIF_FUNCTIONS(LOOK_UP_VALUE, LOOK_UP_VOID)
}

bool cheif_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (load_error[0] == 0) return true;
    snprintf(error, error_size, "%s", load_error);
    return false;
}

#define FORWARD(type, name, parameters, arguments) \
    type cheif_##name parameters { return functions.name arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
    void cheif_##name parameters { functions.name arguments; }
CHEIF_FUNCTIONS(FORWARD, FORWARD_VOID)
