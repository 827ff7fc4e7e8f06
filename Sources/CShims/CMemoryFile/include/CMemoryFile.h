#pragma once

/// memfd_create(name, MFD_CLOEXEC): an anonymous file in memory, close-on-exec. Swift's Glibc
/// module is built without _GNU_SOURCE, so it does not see memfd_create; hence this shim.
/// Returns the descriptor, or -1 with errno set.
int cmemory_file_create(const char *name);
