#include "CHEIF.h"
#include <CLazyLibrary.h>

static struct {
    CHEIF_FUNCTIONS(CLAZY_POINTER, CLAZY_POINTER_VOID)
} functions;
static const char *const names[] = {CHEIF_FUNCTIONS(CLAZY_NAME, CLAZY_NAME_VOID)};
static void **const slots[] = {CHEIF_FUNCTIONS(CLAZY_SLOT, CLAZY_SLOT_VOID)};
static struct clazy_library lazy = CLAZY_LIBRARY("libheif.so.1", "heif_", names, slots);

bool cheif_load(char *error, size_t error_size) { return clazy_load_once(&lazy, error, error_size); }

#define FORWARD(type, name, parameters, arguments) \
    type cheif_##name parameters { return functions.name arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
    void cheif_##name parameters { functions.name arguments; }
CHEIF_FUNCTIONS(FORWARD, FORWARD_VOID)
