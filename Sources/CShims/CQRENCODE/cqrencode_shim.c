#include "CQRENCODE.h"
#include <CLazyLibrary.h>

#define CLAZY_SHIM_PREFIX cqrencode_
CLAZY_SHIM(CQRENCODE_FUNCTIONS, "libqrencode.so.4", "QRcode_", cqrencode_load)
