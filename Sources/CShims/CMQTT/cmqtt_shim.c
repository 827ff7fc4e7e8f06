#include "CMQTT.h"
#include <CLazyLibrary.h>

static struct {
    CMQTT_FUNCTIONS(CLAZY_POINTER, CLAZY_POINTER_VOID)
} functions;
static const char *const names[] = {CMQTT_FUNCTIONS(CLAZY_NAME, CLAZY_NAME_VOID)};
static void **const slots[] = {CMQTT_FUNCTIONS(CLAZY_SLOT, CLAZY_SLOT_VOID)};
static struct clazy_library lazy = CLAZY_LIBRARY("libmosquitto.so.1", "mosquitto_", names, slots);

bool cmqtt_load(char *error, size_t error_size) { return clazy_load_once(&lazy, error, error_size); }

#define FORWARD(type, name, parameters, arguments) \
    type cmqtt_##name parameters { return functions.name arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
    void cmqtt_##name parameters { functions.name arguments; }
CMQTT_FUNCTIONS(FORWARD, FORWARD_VOID)
