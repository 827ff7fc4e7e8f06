#include "CInput.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// One sink per process: libinput's handler has no user pointer of its own. The Swift side reaches
// its per-context state through libinput_get_user_data.
static cinput_log_sink current_sink;

static void trampoline(struct libinput *libinput, enum libinput_log_priority priority,
                       const char *format, va_list args) {
    char message[1024];
    vsnprintf(message, sizeof message, format, args);
    size_t n = strlen(message);
    if (n > 0 && message[n - 1] == '\n') message[n - 1] = '\0';
    cinput_log_sink sink = __atomic_load_n(&current_sink, __ATOMIC_ACQUIRE);
    if (sink) sink(libinput, (int)priority, message);
}

void cinput_set_log_sink(struct libinput *libinput, cinput_log_sink sink) {
    __atomic_store_n(&current_sink, sink, __ATOMIC_RELEASE);
    libinput_log_set_handler(libinput, trampoline);
}

#include <errno.h>
#include <linux/input.h>
#include <sys/ioctl.h>

int cinput_abs_info(int fd, unsigned code, int *minimum, int *maximum, int *resolution) {
    struct input_absinfo info;
    if (code > ABS_MAX || ioctl(fd, EVIOCGABS(code), &info) < 0) return -errno;
    *minimum = info.minimum;
    *maximum = info.maximum;
    *resolution = info.resolution;
    return 0;
}
