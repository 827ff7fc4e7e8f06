#include "CHEIF.h"
#include <CLazyLibrary.h>

#define CLAZY_SHIM_PREFIX cheif_
CLAZY_SHIM(CHEIF_FUNCTIONS, "libheif.so.1", "heif_", cheif_load)
