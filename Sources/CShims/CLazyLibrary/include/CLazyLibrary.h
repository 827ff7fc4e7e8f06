#pragma once
#include <stdbool.h>
#include <stddef.h>

/// A shared library opened with dlopen on first use instead of being linked, so that its pages
/// (and those of the libraries it links) are only mapped in a process that uses it. The CHEIF,
/// CMQTT and CHTTP shims load libheif, libmosquitto and libmicrohttpd this way.

/// Opens `library` (a soname such as "libheif.so.1") and looks up `count` functions: the
/// address of `prefix` + `names[i]` goes into `*slots[i]`. False, with a message in `error`
/// naming the library or the missing function, when either is missing; the slots are then
/// not to be used.
bool clazy_load(const char *library, const char *prefix, const char *const *names, void **const *slots,
                size_t count, char *error, size_t error_size);
