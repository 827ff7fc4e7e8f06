#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// libmicrohttpd's start call and its union-returning info calls are variadic or awkward from
/// Swift; these wrappers are the only C the remote server needs.
///
/// libmicrohttpd is reached through dlopen when the remote page starts (chttp_start loads it),
/// so a frame without `[remote] listen` does not map it and the TLS libraries it links (gnutls,
/// p11-kit, nettle, gmp, ...: about 2.3 MB of resident pages at startup, measured). Types and
/// constants come from microhttpd.h; each `chttp_NAME` in CHTTP_FUNCTIONS calls libmicrohttpd's
/// `MHD_NAME` and may be used only on a daemon chttp_start returned.

/// Starts a daemon that is driven from the caller's own epoll loop (MHD_USE_EPOLL without an
/// internal thread; suspend/resume allowed). `address` is an IPv4 or IPv6 literal ("0.0.0.0",
/// "127.0.0.1", "::"); `port` 0 picks a free port (see chttp_bound_port). Returns NULL and writes
/// the reason into `error` when libmicrohttpd cannot be loaded, the address does not parse or the
/// socket cannot be bound.
/// `request_started` (MHD_OPTION_URI_LOG_CALLBACK) sees each request's raw target before any
/// decoding; what it returns is the request's slot value in `handler`. `connection_changed`
/// (MHD_OPTION_NOTIFY_CONNECTION) hears every connection open and close.
typedef void *(*chttp_request_started_callback)(void *context, const char *target, struct MHD_Connection *connection);
struct MHD_Daemon *chttp_start(const char *address, uint16_t port, unsigned connection_limit,
                               unsigned per_address_limit, unsigned connection_timeout_seconds,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               chttp_request_started_callback request_started,
                               MHD_NotifyConnectionCallback connection_changed, void *context,
                               char *error, size_t error_size);

/// Shuts the connection's socket down both ways (not closed: libmicrohttpd still owns the fd);
/// libmicrohttpd then sees the end on its next run and closes it as if the peer had.
void chttp_shutdown_connection(struct MHD_Connection *connection);

/// The epoll fd to watch for readability; when readable, call MHD_run.
int chttp_epoll_fd(struct MHD_Daemon *daemon);

/// The port the daemon listens on.
uint16_t chttp_bound_port(struct MHD_Daemon *daemon);

/// Milliseconds until MHD_run must be called again for connection timeouts; -1: no deadline.
long long chttp_timeout_ms(struct MHD_Daemon *daemon);

/// rename(2) that fails with EEXIST instead of replacing `to` (renameat2 RENAME_NOREPLACE, which
/// Swift's Glibc module does not declare). Returns 0, or -1 with errno set (EINVAL where the file
/// system cannot do it).
int chttp_rename_noreplace(const char *from, const char *to);

/// The peer's address as text ("192.168.1.20", "::1"); "" when unknown.
void chttp_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// Loads libmicrohttpd ("libmicrohttpd.so.12") and looks up its functions, once per process;
/// later calls return the first answer. False, with the reason in `error`, when the library or
/// one of its functions is missing. chttp_start calls it; `photokiosk doctor` asks it too.
bool chttp_load(char *error, size_t error_size);

/// The functions used (libmicrohttpd 0.9.7x's signatures): X for those returning a value, V for
/// void.
#define CHTTP_FUNCTIONS(X, V)                                                                      \
    X(enum MHD_Result, run, (struct MHD_Daemon *daemon), (daemon))                                \
    V(stop_daemon, (struct MHD_Daemon *daemon), (daemon))                                         \
    X(enum MHD_Result, get_timeout, (struct MHD_Daemon *daemon, MHD_UNSIGNED_LONG_LONG *timeout), \
      (daemon, timeout))                                                                          \
    X(int, get_connection_values,                                                                 \
      (struct MHD_Connection *connection, enum MHD_ValueKind kind,                                \
       MHD_KeyValueIterator iterator, void *context), (connection, kind, iterator, context))      \
    V(suspend_connection, (struct MHD_Connection *connection), (connection))                      \
    V(resume_connection, (struct MHD_Connection *connection), (connection))                       \
    X(struct MHD_Response *, create_response_from_buffer,                                         \
      (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))        \
    X(enum MHD_Result, add_response_header,                                                       \
      (struct MHD_Response *response, const char *header, const char *content),                   \
      (response, header, content))                                                                \
    X(enum MHD_Result, queue_response,                                                            \
      (struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response),    \
      (connection, status, response))                                                             \
    V(destroy_response, (struct MHD_Response *response), (response))                              \
    X(struct MHD_PostProcessor *, create_post_processor,                                          \
      (struct MHD_Connection *connection, size_t buffer_size, MHD_PostDataIterator iterator,      \
       void *context), (connection, buffer_size, iterator, context))                              \
    X(enum MHD_Result, post_process,                                                              \
      (struct MHD_PostProcessor *processor, const char *data, size_t length),                     \
      (processor, data, length))                                                                  \
    X(enum MHD_Result, destroy_post_processor, (struct MHD_PostProcessor *processor), (processor))

#define CHTTP_DECLARE(type, name, parameters, arguments) type chttp_##name parameters;
#define CHTTP_DECLARE_VOID(name, parameters, arguments) void chttp_##name parameters;
CHTTP_FUNCTIONS(CHTTP_DECLARE, CHTTP_DECLARE_VOID)
#undef CHTTP_DECLARE
#undef CHTTP_DECLARE_VOID
