#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// libmicrohttpd's start call and its union-returning info calls are variadic or awkward from
/// Swift; these wrappers are the only C the remote server needs.

/// Starts a daemon that is driven from the caller's own epoll loop (MHD_USE_EPOLL without an
/// internal thread; suspend/resume allowed). `address` is an IPv4 or IPv6 literal ("0.0.0.0",
/// "127.0.0.1", "::"); `port` 0 picks a free port (see chttp_bound_port). Returns NULL and writes
/// the reason into `error` when the address does not parse or the socket cannot be bound.
struct MHD_Daemon *chttp_start(const char *address, uint16_t port, unsigned connection_limit,
                               unsigned per_address_limit, unsigned connection_timeout_seconds,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               char *error, size_t error_size);

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
