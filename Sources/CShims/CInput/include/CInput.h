#pragma once
#include <libinput.h>

/// Receives libinput's log lines already formatted, without their trailing newline.
typedef void (*cinput_log_sink)(struct libinput *libinput, int priority, const char *message);

/// Installs a log handler on `libinput` that formats with vsnprintf and calls `sink`.
/// libinput's handler is variadic (va_list differs between x86_64 and aarch64), which Swift
/// cannot receive portably; this trampoline is the whole reason the shim exists.
void cinput_set_log_sink(struct libinput *libinput, cinput_log_sink sink);
