#include "CMQTT.h"
#include <CLazyLibrary.h>

#define CLAZY_SHIM_PREFIX cmqtt_
CLAZY_SHIM(CMQTT_FUNCTIONS, "libmosquitto.so.1", "mosquitto_", cmqtt_load)
