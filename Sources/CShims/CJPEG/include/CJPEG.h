// libjpeg-turbo behind setjmp/longjmp, which Swift cannot call: every libjpeg call that may
// invoke error_exit runs inside a C function here that catches it and returns a status instead.
// libjpeg never prints, never exits; messages land in a buffer the caller reads.
#pragma once
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <jpeglib.h>

/// What went wrong, coarse enough for Swift to pick an error kind.
typedef enum {
    CJPEG_OK = 0,
    CJPEG_CORRUPT = 1,      ///< bad data (or a warning in strict mode)
    CJPEG_TRUNCATED = 2,    ///< the data ended before the image did
    CJPEG_UNSUPPORTED = 3,  ///< valid JPEG this build cannot decode (12-bit, lossless, ...)
    CJPEG_NO_MEMORY = 4,
    CJPEG_BAD_CALL = 5,     ///< misuse of the shim (called after a failure, bad arguments)
    CJPEG_CANCELLED = 6     ///< the stop check asked to stop
} cjpeg_status;

/// Asked every few rows (and between progressive scans); nonzero stops the decode.
typedef int (*cjpeg_stop_check)(void *context);

/// A decoder for one image; not thread-safe, one per decode.
typedef struct cjpeg_decoder cjpeg_decoder;

/// What jpeg_read_header learned, without decoding pixels.
typedef struct {
    uint32_t width;
    uint32_t height;
    int components;
    J_COLOR_SPACE color_space;   ///< JCS_GRAYSCALE, JCS_YCbCr, JCS_RGB, JCS_CMYK or JCS_YCCK
    int precision;               ///< bits per sample
    int progressive;
    int arithmetic;
    int saw_adobe_marker;        ///< Adobe APP14 present: CMYK data is stored inverted
    const uint8_t *exif;         ///< payload of the first "Exif\0\0" APP1 (owned by the decoder), or NULL
    size_t exif_length;
} cjpeg_header;

/// `strict`: treat the first warning (e.g. premature end of file) as an error.
/// `max_scans`: refuse progressive files with more scans than this (0 = no limit); such files
/// can take minutes to decode.
cjpeg_decoder *cjpeg_decoder_create(int strict, int max_scans);
void cjpeg_decoder_destroy(cjpeg_decoder *decoder);

/// Installs a check that can stop a running decode (a load cancelled by the viewer).
void cjpeg_decoder_set_stop_check(cjpeg_decoder *decoder, cjpeg_stop_check check, void *context);

/// Reads markers up to the first scan from `data`, which must stay alive until destroy.
cjpeg_status cjpeg_decoder_read_header(cjpeg_decoder *decoder, const uint8_t *data, size_t size,
                                       cjpeg_header *header);

/// Chooses the DCT scale and output colour space and returns the output size.
/// `cmyk`: output raw CMYK (for CMYK/YCCK files, which libjpeg cannot turn into RGB); otherwise
/// output is JCS_EXT_BGRX (XRGB8888 in memory on little-endian).
cjpeg_status cjpeg_decoder_prepare(cjpeg_decoder *decoder, unsigned scale_num, unsigned scale_denom,
                                   int cmyk, uint32_t *out_width, uint32_t *out_height);

/// Decodes every scanline into `pixels` (4 bytes per pixel, rows `stride` bytes apart, at least
/// the prepared output size). Rows not reached stay untouched.
cjpeg_status cjpeg_decoder_decode(cjpeg_decoder *decoder, uint8_t *pixels, size_t stride);

/// Progressive files decoded at 1/8 scale read only their DC scans and keep one coefficient per
/// block instead of 64 (on by default; see cjpeg_shim.c). Call before cjpeg_decoder_decode.
void cjpeg_decoder_allow_dc_only(cjpeg_decoder *decoder, int allow);
/// After prepare: bytes of whole-image coefficient buffers the decode will hold (progressive
/// files; one coefficient per block on the DC-only path; an estimate of the packed store when
/// packing), 0 for single-scan files.
size_t cjpeg_decoder_coefficient_bytes(const cjpeg_decoder *decoder);
/// Whether the last decode took the DC-only path.
int cjpeg_decoder_used_dc_only(const cjpeg_decoder *decoder);
/// Progressive files decoded above 1/8 scale keep their coefficients packed (only the nonzero
/// ones; lossless) instead of libjpeg's 128 bytes per block (on by default; see cjpeg_compact.h).
/// Call before decoding; the estimate of cjpeg_decoder_coefficient_bytes follows it.
void cjpeg_decoder_allow_compact(cjpeg_decoder *decoder, int allow);
/// Whether the last decode packed its coefficients, and the most packed bytes it held at once.
int cjpeg_decoder_used_compact(const cjpeg_decoder *decoder);
size_t cjpeg_decoder_coefficient_peak_bytes(const cjpeg_decoder *decoder);

/// The last error message, or the first warning when there was no error ("" if none).
const char *cjpeg_decoder_message(const cjpeg_decoder *decoder);
/// Warnings libjpeg emitted before the last row (corrupt data, premature end of file): the
/// image may be partial. Warnings after it (a missing EOI marker) are not counted.
long cjpeg_decoder_warning_count(const cjpeg_decoder *decoder);
/// Whether one of the warnings was "Premature end of JPEG file".
int cjpeg_decoder_saw_truncation(const cjpeg_decoder *decoder);
/// The first warning's text ("" if none).
const char *cjpeg_decoder_first_warning(const cjpeg_decoder *decoder);

// MARK: Band decoding (huge images: a few rows at a time, never the whole image)

/// Like cjpeg_decoder_read_header but reads from an open file as libjpeg needs it (stdio source),
/// so a 20000x20000 JPEG never sits in memory whole. `file` must stay open until destroy.
cjpeg_status cjpeg_decoder_read_header_file(cjpeg_decoder *decoder, FILE *file, cjpeg_header *header);

/// After prepare: starts decompressing for cjpeg_decoder_read_rows.
cjpeg_status cjpeg_decoder_start_rows(cjpeg_decoder *decoder);

/// Decodes up to `max_rows` more rows into `pixels` (the band's first row; rows `stride` bytes
/// apart). `*rows_read` gets how many were written; 0 means the image is complete.
cjpeg_status cjpeg_decoder_read_rows(cjpeg_decoder *decoder, uint8_t *pixels, size_t stride,
                                     uint32_t max_rows, uint32_t *rows_read);

/// After the last row: ends the decompression (problems after the last row are ignored, as in
/// cjpeg_decoder_decode).
cjpeg_status cjpeg_decoder_finish_rows(cjpeg_decoder *decoder);

// MARK: Encoding

typedef enum {
    CJPEG_INPUT_BGRX = 0,   ///< 4 bytes per pixel, XRGB8888 in memory
    CJPEG_INPUT_CMYK = 1,   ///< 4 bytes per pixel C M Y K, stored as given (Adobe writes inverted)
    CJPEG_INPUT_GRAY = 2    ///< 1 byte per pixel
} cjpeg_input_format;

typedef struct {
    int marker;              ///< JPEG_APP0 + n, JPEG_COM
    const uint8_t *data;
    size_t length;           ///< at most 65533
} cjpeg_marker;

typedef struct {
    const uint8_t *pixels;
    size_t stride;
    uint32_t width;
    uint32_t height;
    cjpeg_input_format input;
    int quality;             ///< 1...100
    int grayscale;           ///< write a one-component JPEG from BGRX input
    int ycck;                ///< store CMYK input as YCCK (Adobe transform 2)
    int progressive;
    int arithmetic;
    int full_chroma;         ///< 4:4:4 instead of 4:2:0
    unsigned restart_interval;  ///< in MCUs; 0 = none
    const cjpeg_marker *markers;
    int marker_count;
} cjpeg_encode_params;

/// Encodes into a malloc'd buffer the caller frees with cjpeg_free. On failure *out is NULL and
/// `message` holds the reason.
cjpeg_status cjpeg_encode(const cjpeg_encode_params *params, uint8_t **out, size_t *out_length,
                          char *message, size_t message_capacity);
void cjpeg_free(void *pointer);
