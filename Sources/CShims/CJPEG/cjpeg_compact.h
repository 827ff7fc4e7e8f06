// Compact coefficient store for progressive decodes (internal to the CJPEG shim).
//
// A progressive JPEG is decoded scan by scan, so libjpeg keeps every DCT coefficient of the
// image (128 bytes per 8x8 block: 88 MB for a 5120x2880 4:4:4 photo) until the last scan is in.
// Most of those coefficients are zero. This store replaces libjpeg's whole-image block arrays
// (through the public jpeg_memory_mgr methods, as the DC-only path does) with one compact
// record per block row: per block, a 64-bit mask of its nonzero coefficients followed by their
// values (one byte each when small). libjpeg only ever sees a small window of whole blocks, which is packed back when it
// asks for the next one. Lossless: the decoded pixels are the same.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

struct cjpeg_compact_array {
    JDIMENSION blocks_per_row, rows, max_access;
    uint8_t **row_data;      // `rows` packed rows, NULL while a row is all zero
    size_t *row_length;
    JBLOCKARRAY window;
    JDIMENSION window_start, window_rows;
    int window_dirty;
};

struct cjpeg_compact_store {
    struct cjpeg_compact_array arrays[MAX_COMPONENTS];
    int count;
    uint8_t *scratch;        // one packed row at its largest, reused
    size_t scratch_size;
    size_t bytes;            // packed bytes held now
    size_t peak_bytes;       // the most held at once during this decode
    jvirt_barray_ptr (*base_request)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    void (*base_realize)(j_common_ptr);
    JBLOCKARRAY (*base_access)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
};

/// The store of the decoder running `cinfo` (defined by the shim, which owns the store).
struct cjpeg_compact_store *cjpeg_compact_store_of(j_common_ptr cinfo);

/// Before jpeg_start_decompress: image-lifetime block arrays requested from now on are compact.
void cjpeg_compact_install(j_decompress_ptr cinfo, struct cjpeg_compact_store *store);

/// Frees the packed rows (libjpeg's pools free the windows). Safe to call more than once.
void cjpeg_compact_release(struct cjpeg_compact_store *store);
