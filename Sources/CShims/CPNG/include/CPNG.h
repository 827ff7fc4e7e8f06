// libpng behind setjmp/longjmp, which Swift cannot call: each libpng call that may png_error()
// runs inside a C function here that catches the longjmp and returns a status. Nothing printed.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <png.h>

typedef enum {
    CPNG_OK = 0,
    CPNG_CORRUPT = 1,     ///< bad signature, CRC, zlib stream, chunk layout
    CPNG_TRUNCATED = 2,   ///< data ended early
    CPNG_NO_MEMORY = 3,
    CPNG_BAD_CALL = 4,
    CPNG_CANCELLED = 5    ///< the stop check asked to stop
} cpng_status;

/// Asked every few rows; nonzero stops the decode.
typedef int (*cpng_stop_check)(void *context);

/// A decoder for one image; not thread-safe, one per decode.
typedef struct cpng_decoder cpng_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;      ///< per sample as stored: 1, 2, 4, 8 or 16
    int color_type;     ///< PNG_COLOR_TYPE_*
    int interlaced;     ///< Adam7
    int has_transparency; ///< alpha channel or tRNS chunk
} cpng_header;

/// `data` must stay alive until destroy.
cpng_decoder *cpng_decoder_create(const uint8_t *data, size_t size);
void cpng_decoder_destroy(cpng_decoder *decoder);

/// Installs a check that can stop a running decode (a load cancelled by the viewer).
void cpng_decoder_set_stop_check(cpng_decoder *decoder, cpng_stop_check check, void *context);

/// Reads chunks up to the first IDAT.
cpng_status cpng_decoder_read_header(cpng_decoder *decoder, cpng_header *header);

/// Decodes into 4 bytes per pixel B G R A (straight alpha; 0xFF when the image has none),
/// 16-bit samples scaled to 8, palette and gray expanded. For a non-interlaced image that ends
/// early, `rows_done` tells how many rows are complete.
cpng_status cpng_decoder_decode(cpng_decoder *decoder, uint8_t *pixels, size_t stride,
                                uint32_t *rows_done);

/// The error message ("" if none).
const char *cpng_decoder_message(const cpng_decoder *decoder);
/// Warnings libpng emitted (bad ancillary chunk CRCs, ...).
long cpng_decoder_warning_count(const cpng_decoder *decoder);

/// Encodes XRGB8888 pixels (B G R X in memory) as an 8-bit RGB PNG into a malloc'd buffer the
/// caller frees with cpng_free. `compression` is zlib's level 0...9.
cpng_status cpng_encode_bgrx(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             int compression, uint8_t **out, size_t *out_length,
                             char *message, size_t message_capacity);
void cpng_free(void *pointer);
