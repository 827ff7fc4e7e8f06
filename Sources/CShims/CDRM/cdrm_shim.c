#include "CDRM.h"
