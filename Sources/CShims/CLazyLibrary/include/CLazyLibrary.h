#pragma once
#include <pthread.h>
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

/// One shim's library, loaded at most once per process (the first caller's outcome is kept).
struct clazy_library {
    const char *library, *prefix;
    const char *const *names;
    void **const *slots;
    size_t count;
    pthread_mutex_t lock;
    int state;          // 0 not tried, 1 loaded, -1 failed (with `error`)
    char error[256];
};
#define CLAZY_LIBRARY(library, prefix, names, slots) \
    {library, prefix, names, slots, sizeof names / sizeof *names, PTHREAD_MUTEX_INITIALIZER, 0, {0}}

/// Loads `lazy` the first time; later calls give the same answer. False with the message in `error`.
bool clazy_load_once(struct clazy_library *lazy, char *error, size_t error_size);

// The shims list their functions once, as an X-macro LIST(X, V): X(type, name, (parameters),
// (arguments)) for a function with a result, V(name, (parameters), (arguments)) for a void one.
// These expand that list into the pointer table, the names to look up and their slots; the
// table must be a static variable named `functions`.
#define CLAZY_POINTER(type, name, parameters, arguments) type(*name) parameters;
#define CLAZY_POINTER_VOID(name, parameters, arguments) void(*name) parameters;
#define CLAZY_NAME(type, name, parameters, arguments) #name,
#define CLAZY_NAME_VOID(name, parameters, arguments) #name,
#define CLAZY_SLOT(type, name, parameters, arguments) (void **)&functions.name,
#define CLAZY_SLOT_VOID(name, parameters, arguments) (void **)&functions.name,

// Each function of the list as the shim's own: CLAZY_SHIM_PREFIX + name, calling through the
// table. The shim defines CLAZY_SHIM_PREFIX (e.g. cheif_) before expanding its list with these.
#define CLAZY_CONCAT_(a, b) a##b
#define CLAZY_CONCAT(a, b) CLAZY_CONCAT_(a, b)
#define CLAZY_FORWARD(type, name, parameters, arguments) \
    type CLAZY_CONCAT(CLAZY_SHIM_PREFIX, name) parameters { return functions.name arguments; }
#define CLAZY_FORWARD_VOID(name, parameters, arguments) \
    void CLAZY_CONCAT(CLAZY_SHIM_PREFIX, name) parameters { functions.name arguments; }

/// A whole shim whose functions are all in LIST: the table, `library` (a soname) with its
/// symbol prefix, `load` (the shim's public loader, as clazy_load_once) and the forwarders.
#define CLAZY_SHIM(LIST, library, symbol_prefix, load)                                             \
    static struct {                                                                                \
        LIST(CLAZY_POINTER, CLAZY_POINTER_VOID)                                                    \
    } functions;                                                                                   \
    static const char *const names[] = {LIST(CLAZY_NAME, CLAZY_NAME_VOID)};                          \
    static void **const slots[] = {LIST(CLAZY_SLOT, CLAZY_SLOT_VOID)};                               \
    static struct clazy_library lazy = CLAZY_LIBRARY(library, symbol_prefix, names, slots);         \
    bool load(char *error, size_t error_size) { return clazy_load_once(&lazy, error, error_size); } \
    LIST(CLAZY_FORWARD, CLAZY_FORWARD_VOID)
