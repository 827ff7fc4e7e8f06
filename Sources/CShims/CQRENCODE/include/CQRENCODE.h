#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <qrencode.h>

/// libqrencode reached through dlopen the first time a QR code is drawn (the pairing screens), so
/// a frame that never shows one does not map it. Types and constants come from qrencode.h; each
/// `cqrencode_NAME` below calls libqrencode's `QRcode_NAME` and may be used only after
/// cqrencode_load has returned true.

/// Loads libqrencode ("libqrencode.so.4") and looks up the functions below, once per process;
/// later calls return the first answer. False, with the reason in `error`, when the library or
/// one of its functions is missing.
bool cqrencode_load(char *error, size_t error_size);

/// The functions used (libqrencode 4's signatures): X for those returning a value, V for void.
#define CQRENCODE_FUNCTIONS(X, V)                                                                  \
    X(QRcode *, encodeString8bit, (const char *string, int version, QRecLevel level),              \
      (string, version, level))                                                                    \
    V(free, (QRcode *qrcode), (qrcode))

#define CQRENCODE_DECLARE(type, name, parameters, arguments) type cqrencode_##name parameters;
#define CQRENCODE_DECLARE_VOID(name, parameters, arguments) void cqrencode_##name parameters;
CQRENCODE_FUNCTIONS(CQRENCODE_DECLARE, CQRENCODE_DECLARE_VOID)
#undef CQRENCODE_DECLARE
#undef CQRENCODE_DECLARE_VOID
