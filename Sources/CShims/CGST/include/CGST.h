#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// GStreamer reached through dlopen on the first video clip, so a frame that never shows one
/// does not map libgstreamer, GLib and the codec plugins. No GStreamer header is used: the
/// -dev package would add GLib's whole tree to every build root (the arm64 cross sysroot
/// included) for a dozen functions, so the shim declares the few entry points and the one
/// struct it needs (GstMapInfo, unchanged since 1.0) itself. The GLib/GObject functions are
/// looked up on the same handle: dlsym searches the library's dependencies too.

/// Loads libgstreamer ("libgstreamer-1.0.so.0"), looks up its functions and initialises
/// GStreamer, once per process; later calls return the first answer. False, with the reason
/// in `error`, when the library, one of its functions or gst_init_check fails.
bool cgst_load(char *error, size_t error_size);

/// A clip's first frame and what the stream says about the clip.
struct cgst_poster {
    /// BGRx rows (XRGB8888 in memory on little-endian), `stride` bytes apart, malloc'ed: the
    /// caller frees them with free().
    uint8_t *pixels;
    int width, height, stride;
    /// The clip's size as displayed (after its orientation tag and pixel aspect ratio), before
    /// any scaling.
    int natural_width, natural_height;
    /// Nanoseconds; -1 when the container does not say.
    int64_t duration_ns;
};

/// Prerolls the clip at `path` (a NUL-terminated file name: bytes, not necessarily UTF-8) with
/// audio and subtitles off, and copies out its first frame, scaled down to fit inside
/// max_width x max_height keeping its shape (0 for either: the natural size). Waits at most
/// `timeout_ms` for the first frame, so a damaged or endless file fails instead of hanging.
/// Thread-safe: each call builds and tears down its own pipeline. False with GStreamer's own
/// message in `error` (cgst_load must have returned true first).
bool cgst_read_poster(const char *path, int max_width, int max_height, int timeout_ms,
                      struct cgst_poster *poster, char *error, size_t error_size);
