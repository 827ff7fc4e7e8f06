#include "CInput.h"
