#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <mosquitto.h>

/// libmosquitto reached through dlopen when MQTT is configured, so a frame without a broker does
/// not map it and the TLS libraries it links (libssl, libcrypto: about 1.6 MB of resident pages
/// at startup, measured). Types and constants come from mosquitto.h; each `cmqtt_NAME` below
/// calls libmosquitto's `mosquitto_NAME` and may be used only after cmqtt_load has returned true.

/// Loads libmosquitto ("libmosquitto.so.1") and looks up the functions below, once per process;
/// later calls return the first answer. False, with the reason in `error`, when the library or
/// one of its functions is missing.
bool cmqtt_load(char *error, size_t error_size);

/// The functions used (libmosquitto 2.0's signatures): X for those returning a value, V for void.
#define CMQTT_FUNCTIONS(X, V)                                                                      \
    X(int, lib_init, (void), ())                                                                  \
    X(struct mosquitto *, new, (const char *id, bool clean_session, void *context),               \
      (id, clean_session, context))                                                               \
    V(destroy, (struct mosquitto *mosq), (mosq))                                                  \
    X(int, username_pw_set, (struct mosquitto *mosq, const char *username, const char *password), \
      (mosq, username, password))                                                                 \
    X(int, will_set, (struct mosquitto *mosq, const char *topic, int length, const void *payload, \
                      int qos, bool retain), (mosq, topic, length, payload, qos, retain))         \
    X(int, tls_set, (struct mosquitto *mosq, const char *cafile, const char *capath,              \
                     const char *certfile, const char *keyfile,                                   \
                     int (*password)(char *buffer, int size, int rwflag, void *context)),         \
      (mosq, cafile, capath, certfile, keyfile, password))                                        \
    V(connect_callback_set, (struct mosquitto *mosq, void (*on)(struct mosquitto *, void *, int)), \
      (mosq, on))                                                                                  \
    V(disconnect_callback_set,                                                                    \
      (struct mosquitto *mosq, void (*on)(struct mosquitto *, void *, int)), (mosq, on))           \
    V(subscribe_callback_set,                                                                     \
      (struct mosquitto *mosq, void (*on)(struct mosquitto *, void *, int, int, const int *)),    \
      (mosq, on))                                                                                  \
    V(message_callback_set,                                                                       \
      (struct mosquitto *mosq,                                                                     \
       void (*on)(struct mosquitto *, void *, const struct mosquitto_message *)), (mosq, on))      \
    X(int, connect_async, (struct mosquitto *mosq, const char *host, int port, int keepalive),    \
      (mosq, host, port, keepalive))                                                              \
    X(int, reconnect_async, (struct mosquitto *mosq), (mosq))                                     \
    X(int, disconnect, (struct mosquitto *mosq), (mosq))                                          \
    X(int, publish, (struct mosquitto *mosq, int *mid, const char *topic, int length,             \
                     const void *payload, int qos, bool retain),                                  \
      (mosq, mid, topic, length, payload, qos, retain))                                           \
    X(int, subscribe, (struct mosquitto *mosq, int *mid, const char *pattern, int qos),           \
      (mosq, mid, pattern, qos))                                                                  \
    X(int, socket, (struct mosquitto *mosq), (mosq))                                              \
    X(bool, want_write, (struct mosquitto *mosq), (mosq))                                         \
    X(int, loop_read, (struct mosquitto *mosq, int max_packets), (mosq, max_packets))             \
    X(int, loop_write, (struct mosquitto *mosq, int max_packets), (mosq, max_packets))            \
    X(int, loop_misc, (struct mosquitto *mosq), (mosq))                                           \
    X(const char *, strerror, (int code), (code))                                                 \
    X(const char *, connack_string, (int code), (code))

#define CMQTT_DECLARE(type, name, parameters, arguments) type cmqtt_##name parameters;
#define CMQTT_DECLARE_VOID(name, parameters, arguments) void cmqtt_##name parameters;
CMQTT_FUNCTIONS(CMQTT_DECLARE, CMQTT_DECLARE_VOID)
#undef CMQTT_DECLARE
#undef CMQTT_DECLARE_VOID
