#pragma once
#include <stddef.h>

/// libseat reached through dlopen, so photokiosk has no hard dependency on libseat1 and still
/// runs (opening devices directly) where it is missing. The few prototypes used are copied
/// from libseat.h (libseat 0.x, soname libseat.so.1).

/// A loaded libseat with an open seat. Opaque to Swift.
typedef struct cseat_session cseat_session;

/// Called for the seat's enable_seat / disable_seat events, from inside cseat_dispatch
/// (or cseat_open). `userdata` is what cseat_open was given.
typedef void (*cseat_callback)(void *userdata);

/// Loads `library` (normally "libseat.so.1") and opens a seat (seatd, logind or builtin,
/// whichever libseat finds). Returns NULL and writes the reason into `error` when the library
/// or a symbol is missing or no seat could be opened.
cseat_session *cseat_open(const char *library, cseat_callback enable, cseat_callback disable,
                          void *userdata, char *error, size_t error_size);

/// The fd to poll; readable when cseat_dispatch has events to deliver.
int cseat_get_fd(cseat_session *session);

/// Reads and delivers pending events (timeout in ms, 0 = do not wait). Returns -1 on error.
int cseat_dispatch(cseat_session *session, int timeout_ms);

/// Opens a device through the seat. Returns the device id (for cseat_close_device) and writes
/// the fd into `fd`; returns -errno on failure.
int cseat_open_device(cseat_session *session, const char *path, int *fd);

/// Gives a device back to the seat (the caller closes the fd itself). Returns 0 or -errno.
int cseat_close_device(cseat_session *session, int device_id);

/// Acknowledges a disable_seat event. Returns 0 or -errno.
int cseat_disable_seat(cseat_session *session);

/// The seat's name, such as "seat0".
const char *cseat_seat_name(cseat_session *session);

/// Closes the seat and frees the session (the library stays loaded).
void cseat_close(cseat_session *session);
