#include "CMQTT.h"
#include <CLazyLibrary.h>
#include <pthread.h>
#include <stdio.h>

static const char *const library = "libmosquitto.so.1";

#define POINTER(type, name, parameters, arguments) type(*name) parameters;
#define POINTER_VOID(name, parameters, arguments) void(*name) parameters;
static struct {
    CMQTT_FUNCTIONS(POINTER, POINTER_VOID)
} functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
#define NAME(name) #name,
#define NAME_VALUE(type, name, parameters, arguments) NAME(name)
#define NAME_VOID(name, parameters, arguments) NAME(name)
#define SLOT(name) (void **)&functions.name,
#define SLOT_VALUE(type, name, parameters, arguments) SLOT(name)
#define SLOT_VOID(name, parameters, arguments) SLOT(name)
    static const char *const names[] = {CMQTT_FUNCTIONS(NAME_VALUE, NAME_VOID)};
    void **const slots[] = {CMQTT_FUNCTIONS(SLOT_VALUE, SLOT_VOID)};
    char error[200];
    if (!clazy_load(library, "mosquitto_", names, slots, sizeof names / sizeof *names, error, sizeof error)) {
        snprintf(load_error, sizeof load_error, "%s", error);
    }
}

bool cmqtt_load(char *error, size_t error_size) {
    pthread_once(&once, load);
    if (load_error[0] == 0) return true;
    snprintf(error, error_size, "%s", load_error);
    return false;
}

#define FORWARD(type, name, parameters, arguments) \
    type cmqtt_##name parameters { return functions.name arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
    void cmqtt_##name parameters { functions.name arguments; }
CMQTT_FUNCTIONS(FORWARD, FORWARD_VOID)
