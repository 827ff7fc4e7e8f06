#define _GNU_SOURCE
#include <sys/mman.h>

#include "CMemoryFile.h"

int cmemory_file_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}
