#define _GNU_SOURCE
#include "CHTTP.h"
#include <fcntl.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <CLazyLibrary.h>
#include <string.h>

static struct {
    CHTTP_FUNCTIONS(CLAZY_POINTER, CLAZY_POINTER_VOID)
    // Variadic, called only from this file.
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept,
                                       void *accept_context, MHD_AccessHandlerCallback handler,
                                       void *handler_context, ...);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *connection,
                                                           enum MHD_ConnectionInfoType type, ...);
} functions;
static const char *const names[] = {CHTTP_FUNCTIONS(CLAZY_NAME, CLAZY_NAME_VOID)
                                    "start_daemon", "get_daemon_info", "get_connection_info"};
static void **const slots[] = {CHTTP_FUNCTIONS(CLAZY_SLOT, CLAZY_SLOT_VOID) (void **)&functions.start_daemon,
                               (void **)&functions.get_daemon_info, (void **)&functions.get_connection_info};
static struct clazy_library lazy = CLAZY_LIBRARY("libmicrohttpd.so.12", "MHD_", names, slots);

bool chttp_load(char *error, size_t error_size) { return clazy_load_once(&lazy, error, error_size); }

#define CLAZY_SHIM_PREFIX chttp_
CHTTP_FUNCTIONS(CLAZY_FORWARD, CLAZY_FORWARD_VOID)

struct MHD_Daemon *chttp_start(const char *address, uint16_t port, unsigned connection_limit,
                               unsigned per_address_limit, unsigned connection_timeout_seconds,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               chttp_request_started_callback request_started,
                               MHD_NotifyConnectionCallback connection_changed, void *context,
                               char *error, size_t error_size) {
    char why[200];
    if (!chttp_load(why, sizeof why)) {
        snprintf(error, error_size, "libmicrohttpd is not available (%s); install the libmicrohttpd12 package", why);
        return NULL;
    }
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *socket_address;
    unsigned flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        socket_address = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        socket_address = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_size, "\"%s\" is not an IPv4 or IPv6 address", address);
        return NULL;
    }
    errno = 0;
    struct MHD_Daemon *daemon = functions.start_daemon(
        flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, socket_address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_URI_LOG_CALLBACK, request_started, context,
        MHD_OPTION_NOTIFY_CONNECTION, connection_changed, context,
        MHD_OPTION_END);
    if (daemon == NULL) {
        int code = errno;
        snprintf(error, error_size, "cannot listen on %s port %u: %s", address, (unsigned)port,
                 code != 0 ? strerror(code) : "libmicrohttpd refused to start");
    }
    return daemon;
}

int chttp_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = functions.get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info != NULL ? info->epoll_fd : -1;
}

uint16_t chttp_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = functions.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

long long chttp_timeout_ms(struct MHD_Daemon *daemon) {
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (functions.get_timeout(daemon, &timeout) != MHD_YES) return -1;
    return (long long)timeout;
}

void chttp_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info =
        functions.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *peer = info->client_addr;
    if (peer->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)peer)->sin_addr, buffer, (socklen_t)size);
    } else if (peer->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)peer)->sin6_addr, buffer, (socklen_t)size);
    }
}

void chttp_shutdown_connection(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = functions.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info != NULL && info->connect_fd != MHD_INVALID_SOCKET) shutdown(info->connect_fd, SHUT_RDWR);
}

int chttp_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
