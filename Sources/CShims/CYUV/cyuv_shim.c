#include "CYUV.h"
#include <CLazyLibrary.h>

// libyuv's own names and signatures (libyuv/convert_argb.h); its "ARGB" is B, G, R, A in memory,
// which is DRM's XRGB8888 on little-endian. The colour constants are data, not functions: the
// same lookup fills them (dlsym gives their address).
struct YuvConstants;
typedef int (*i420_function)(const uint8_t *, int, const uint8_t *, int, const uint8_t *, int, uint8_t *, int,
                             const struct YuvConstants *, int, int);
typedef int (*nv12_function)(const uint8_t *, int, const uint8_t *, int, uint8_t *, int,
                             const struct YuvConstants *, int, int);

static struct {
    i420_function I420ToARGBMatrix;
    nv12_function NV12ToARGBMatrix;
    const struct YuvConstants *matrices[6];
} functions;

// In the order of enum cyuv_matrix.
static const char *const names[] = {
    "I420ToARGBMatrix", "NV12ToARGBMatrix", "kYuvI601Constants", "kYuvJPEGConstants",
    "kYuvH709Constants", "kYuvF709Constants", "kYuv2020Constants", "kYuvV2020Constants",
};
static void **const slots[] = {
    (void **)&functions.I420ToARGBMatrix, (void **)&functions.NV12ToARGBMatrix,
    (void **)&functions.matrices[0],      (void **)&functions.matrices[1],
    (void **)&functions.matrices[2],      (void **)&functions.matrices[3],
    (void **)&functions.matrices[4],      (void **)&functions.matrices[5],
};
static struct clazy_library lazy = CLAZY_LIBRARY("libyuv.so.0", "", names, slots);

bool cyuv_load(char *error, size_t error_size) { return clazy_load_once(&lazy, error, error_size); }

static const struct YuvConstants *constants(enum cyuv_matrix matrix) {
    return functions.matrices[(unsigned)matrix < 6 ? matrix : CYUV_BT601_LIMITED];
}

int cyuv_i420_to_xrgb(const uint8_t *y, int y_stride, const uint8_t *u, int u_stride, const uint8_t *v,
                      int v_stride, uint8_t *destination, int destination_stride, enum cyuv_matrix matrix,
                      int width, int height) {
    return functions.I420ToARGBMatrix(y, y_stride, u, u_stride, v, v_stride, destination, destination_stride,
                                      constants(matrix), width, height);
}

int cyuv_nv12_to_xrgb(const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, uint8_t *destination,
                      int destination_stride, enum cyuv_matrix matrix, int width, int height) {
    return functions.NV12ToARGBMatrix(y, y_stride, uv, uv_stride, destination, destination_stride, constants(matrix),
                                      width, height);
}
