#define _GNU_SOURCE
#include "CHTTP.h"
#include <fcntl.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

struct MHD_Daemon *chttp_start(const char *address, uint16_t port, unsigned connection_limit,
                               unsigned per_address_limit, unsigned connection_timeout_seconds,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               char *error, size_t error_size) {
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
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, socket_address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_END);
    if (daemon == NULL) {
        int code = errno;
        snprintf(error, error_size, "cannot listen on %s port %u: %s", address, (unsigned)port,
                 code != 0 ? strerror(code) : "libmicrohttpd refused to start");
    }
    return daemon;
}

int chttp_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info != NULL ? info->epoll_fd : -1;
}

uint16_t chttp_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

long long chttp_timeout_ms(struct MHD_Daemon *daemon) {
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return -1;
    return (long long)timeout;
}

void chttp_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *peer = info->client_addr;
    if (peer->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)peer)->sin_addr, buffer, (socklen_t)size);
    } else if (peer->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)peer)->sin6_addr, buffer, (socklen_t)size);
    }
}

int chttp_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
