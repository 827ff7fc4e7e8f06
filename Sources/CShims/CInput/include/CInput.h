#pragma once
#include <libinput.h>

/// Receives libinput's log lines already formatted, without their trailing newline.
typedef void (*cinput_log_sink)(struct libinput *libinput, int priority, const char *message);

/// Installs a log handler on `libinput` that formats with vsnprintf and calls `sink`.
/// libinput's handler is variadic (va_list differs between x86_64 and aarch64), which Swift
/// cannot receive portably; this trampoline is the whole reason the shim exists.
void cinput_set_log_sink(struct libinput *libinput, cinput_log_sink sink);

/// The range and resolution (units per mm) of absolute axis `code` (ABS_MT_POSITION_X, ...) of
/// the evdev device open on `fd` (EVIOCGABS). Returns 0, or -errno when the device has no such axis.
int cinput_abs_info(int fd, unsigned code, int *minimum, int *maximum, int *resolution);
