#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// libyuv reached through dlopen when the first video clip plays: it turns the decoder's YUV
/// frames into the screen's XRGB8888 straight into the screen's buffer, in one SIMD pass (AVX2,
/// NEON), with no frame-sized copy in between. No libyuv header is used (libyuv-dev would be
/// one more package in every build root for three functions); the shim declares what it calls,
/// as libyuv has exported them since 2018.

/// Loads libyuv ("libyuv.so.0") once per process; later calls return the first answer. False,
/// with the reason in `error`, when the library or one of its symbols is missing.
bool cyuv_load(char *error, size_t error_size);

/// How a frame's YUV values become RGB: the matrix (BT.601, BT.709, BT.2020) and the range
/// (limited 16-235 or full 0-255), as the stream's colorimetry says.
enum cyuv_matrix {
    CYUV_BT601_LIMITED = 0,
    CYUV_BT601_FULL = 1,
    CYUV_BT709_LIMITED = 2,
    CYUV_BT709_FULL = 3,
    CYUV_BT2020_LIMITED = 4,
    CYUV_BT2020_FULL = 5,
};

/// Converts `width` x `height` pixels of a planar 4:2:0 frame (I420: Y, then U and V planes at
/// half size) into XRGB8888 rows at `destination`. The first pixel uses chroma sample (0, 0):
/// callers pass plane pointers already advanced to an even column and row. 0 on success.
int cyuv_i420_to_xrgb(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride, const uint8_t *v,
                      int v_stride, uint8_t *destination, int destination_stride, enum cyuv_matrix matrix,
                      int width, int height);

/// The same for NV12 (a Y plane, then one plane of interleaved U and V at half size).
int cyuv_nv12_to_xrgb(const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, uint8_t *destination,
                      int destination_stride, enum cyuv_matrix matrix, int width, int height);
