#define _GNU_SOURCE
#include "CSeat.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Copied from /usr/include/libseat.h: the listener struct and the functions used.
struct libseat;
struct libseat_seat_listener {
    void (*enable_seat)(struct libseat *seat, void *userdata);
    void (*disable_seat)(struct libseat *seat, void *userdata);
};

struct cseat_session {
    struct libseat *seat;
    struct libseat_seat_listener listener;
    cseat_callback enable;
    cseat_callback disable;
    void *userdata;
    struct libseat *(*open_seat)(const struct libseat_seat_listener *listener, void *userdata);
    int (*close_seat)(struct libseat *seat);
    int (*get_fd)(struct libseat *seat);
    int (*dispatch)(struct libseat *seat, int timeout);
    int (*open_device)(struct libseat *seat, const char *path, int *fd);
    int (*close_device)(struct libseat *seat, int device_id);
    int (*disable_seat)(struct libseat *seat);
    const char *(*seat_name)(struct libseat *seat);
};

static void on_enable(struct libseat *seat, void *userdata) {
    (void)seat;
    struct cseat_session *s = userdata;
    s->enable(s->userdata);
}

static void on_disable(struct libseat *seat, void *userdata) {
    (void)seat;
    struct cseat_session *s = userdata;
    s->disable(s->userdata);
}

#define LOAD(field, name)                                                        \
    do {                                                                         \
        *(void **)(&s->field) = dlsym(lib, name);                                \
        if (!s->field) {                                                         \
            snprintf(error, error_size, "%s has no symbol %s", library, name);   \
            free(s);                                                             \
            return NULL;                                                         \
        }                                                                        \
    } while (0)

cseat_session *cseat_open(const char *library, cseat_callback enable, cseat_callback disable,
                          void *userdata, char *error, size_t error_size) {
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(error, error_size, "dlopen %s: %s", library, why ? why : "failed");
        return NULL;
    }
    struct cseat_session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    LOAD(open_seat, "libseat_open_seat");
    LOAD(close_seat, "libseat_close_seat");
    LOAD(get_fd, "libseat_get_fd");
    LOAD(dispatch, "libseat_dispatch");
    LOAD(open_device, "libseat_open_device");
    LOAD(close_device, "libseat_close_device");
    LOAD(disable_seat, "libseat_disable_seat");
    LOAD(seat_name, "libseat_seat_name");
    s->enable = enable;
    s->disable = disable;
    s->userdata = userdata;
    s->listener.enable_seat = on_enable;
    s->listener.disable_seat = on_disable;
    s->seat = s->open_seat(&s->listener, s);
    if (!s->seat) {
        int err = errno;
        snprintf(error, error_size, "libseat_open_seat: %s (no seatd or logind session?)", strerror(err));
        free(s);
        return NULL;
    }
    return s;
}

int cseat_get_fd(cseat_session *s) { return s->get_fd(s->seat); }

int cseat_dispatch(cseat_session *s, int timeout_ms) { return s->dispatch(s->seat, timeout_ms); }

int cseat_open_device(cseat_session *s, const char *path, int *fd) {
    int id = s->open_device(s->seat, path, fd);
    return id < 0 ? -errno : id;
}

int cseat_close_device(cseat_session *s, int device_id) {
    return s->close_device(s->seat, device_id) < 0 ? -errno : 0;
}

int cseat_disable_seat(cseat_session *s) {
    return s->disable_seat(s->seat) < 0 ? -errno : 0;
}

const char *cseat_seat_name(cseat_session *s) { return s->seat_name(s->seat); }

void cseat_close(cseat_session *s) {
    if (!s) return;
    s->close_seat(s->seat);
    free(s);
}
