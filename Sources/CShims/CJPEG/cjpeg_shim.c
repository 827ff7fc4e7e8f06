#include "CJPEG.h"
#include "cjpeg_compact.h"
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// MARK: Error manager: error_exit longjmps, messages go to buffers, warnings are counted.

struct cjpeg_error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    char first_warning[JMSG_LENGTH_MAX];
    long warnings;
    int saw_truncation;
    int strict;
    cjpeg_status forced_status;   // set by the shim's own refusals (scan limit)
};

static void on_error_exit(j_common_ptr cinfo) {
    struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void on_output_message(j_common_ptr cinfo) {
    struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    struct cjpeg_error_manager *err = (struct cjpeg_error_manager *)cinfo->err;
    err->warnings++;
    if (err->pub.msg_code == JWRN_JPEG_EOF) err->saw_truncation = 1;
    if (err->warnings == 1) (*cinfo->err->format_message)(cinfo, err->first_warning);
    if (err->strict) on_error_exit(cinfo);
}

static void init_error_manager(struct cjpeg_error_manager *err, int strict) {
    memset(err, 0, sizeof *err);
    jpeg_std_error(&err->pub);
    err->pub.error_exit = on_error_exit;
    err->pub.output_message = on_output_message;
    err->pub.emit_message = on_emit_message;
    err->strict = strict;
}

static cjpeg_status classify(const struct cjpeg_error_manager *err) {
    if (err->forced_status != CJPEG_OK) return err->forced_status;
    switch (err->pub.msg_code) {
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return CJPEG_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
        return CJPEG_NO_MEMORY;
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
        return CJPEG_TRUNCATED;
    default:
        return err->saw_truncation ? CJPEG_TRUNCATED : CJPEG_CORRUPT;
    }
}

// MARK: Decoder

enum { STATE_NEW, STATE_HEADER, STATE_PREPARED, STATE_DONE, STATE_ROWS };

// One component's coefficients when only the DC scan is decoded: one coefficient per block
// instead of 64, and a window of whole blocks that libjpeg reads and writes.
struct dc_array {
    JDIMENSION blocks_per_row, rows, max_access;
    JCOEF *dc;
    JBLOCKARRAY window;
    JDIMENSION window_start, window_rows;
    int window_dirty;
};

struct cjpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct cjpeg_error_manager err;
    struct jpeg_progress_mgr progress;
    // DC-only decoding of progressive files at 1/8 scale (see decode_dc_only).
    int allows_dc_only;
    int used_dc_only;
    struct dc_array dc_arrays[MAX_COMPONENTS];
    int dc_array_count;
    jvirt_barray_ptr (*base_request_virt_barray)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    void (*base_realize_virt_arrays)(j_common_ptr);
    JBLOCKARRAY (*base_access_virt_barray)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
    // Progressive decodes above 1/8 scale keep their coefficients packed (cjpeg_compact.c).
    int allows_compact;
    int used_compact;
    struct cjpeg_compact_store compact;
    size_t input_bytes;   // the compressed data's size (the compact store's estimate)
    int max_scans;
    cjpeg_stop_check stop_check;
    void *stop_context;
    long image_warnings;
    int failed;
    int state;
};

// libjpeg calls this every few rows and between scans: the place to stop early.
// Progressive files with thousands of tiny scans decode for minutes: refuse them (djpeg -maxscans).
static void on_progress(j_common_ptr cinfo) {
    cjpeg_decoder *d = (cjpeg_decoder *)cinfo->client_data;
    if (d->stop_check && d->stop_check(d->stop_context)) {
        snprintf(d->err.message, sizeof d->err.message, "decoding cancelled");
        d->err.forced_status = CJPEG_CANCELLED;
        longjmp(d->err.jump, 1);
    }
    if (d->max_scans > 0 && d->cinfo.input_scan_number > d->max_scans) {
        snprintf(d->err.message, sizeof d->err.message,
                 "JPEG has more than %d scans (refused, decoding would take too long)", d->max_scans);
        d->err.forced_status = CJPEG_UNSUPPORTED;
        longjmp(d->err.jump, 1);
    }
}

cjpeg_decoder *cjpeg_decoder_create(int strict, int max_scans) {
    cjpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    init_error_manager(&d->err, strict);
    d->cinfo.err = &d->err.pub;
    d->max_scans = max_scans;
    d->allows_dc_only = 1;
    d->allows_compact = 1;
    if (setjmp(d->err.jump)) {  // jpeg_create_decompress fails only when out of memory
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->cinfo.client_data = d;
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    return d;
}

void cjpeg_decoder_set_stop_check(cjpeg_decoder *d, cjpeg_stop_check check, void *context) {
    if (!d) return;
    d->stop_check = check;
    d->stop_context = context;
}

void cjpeg_decoder_destroy(cjpeg_decoder *d) {
    if (!d) return;
    jpeg_destroy_decompress(&d->cinfo);  // never errors
    cjpeg_compact_release(&d->compact);
    free(d);
}

static cjpeg_status fail(cjpeg_decoder *d) {
    d->failed = 1;
    return classify(&d->err);
}

static cjpeg_status bad_call(cjpeg_decoder *d, const char *what) {
    if (!d) return CJPEG_BAD_CALL;
    if (!d->failed) snprintf(d->err.message, sizeof d->err.message, "%s", what);
    return d->failed ? classify(&d->err) : CJPEG_BAD_CALL;
}

// Reads the header from the source already set on `d` and fills `header`. Called by the two
// public header readers after their setjmp, so a libjpeg error longjmps back into them.
static cjpeg_status read_header_from_source(cjpeg_decoder *d, cjpeg_header *header) {
    jpeg_save_markers(&d->cinfo, JPEG_APP0 + 1, 0xFFFF);
    if (jpeg_read_header(&d->cinfo, TRUE) != JPEG_HEADER_OK) {
        // Only tables, or a suspending source (not possible with the memory or stdio source).
        snprintf(d->err.message, sizeof d->err.message, "JPEG datastream contains no image");
        d->failed = 1;
        return CJPEG_CORRUPT;
    }
    header->width = d->cinfo.image_width;
    header->height = d->cinfo.image_height;
    header->components = d->cinfo.num_components;
    header->color_space = d->cinfo.jpeg_color_space;
    header->precision = d->cinfo.data_precision;
    header->progressive = d->cinfo.progressive_mode ? 1 : 0;
    header->arithmetic = d->cinfo.arith_code ? 1 : 0;
    header->saw_adobe_marker = d->cinfo.saw_Adobe_marker ? 1 : 0;
    for (jpeg_saved_marker_ptr m = d->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            header->exif = m->data + 6;
            header->exif_length = m->data_length - 6;
            break;
        }
    }
    d->state = STATE_HEADER;
    return CJPEG_OK;
}

cjpeg_status cjpeg_decoder_read_header(cjpeg_decoder *d, const uint8_t *data, size_t size,
                                       cjpeg_header *header) {
    if (!d || d->failed || d->state != STATE_NEW || !header) return bad_call(d, "read_header called out of order");
    memset(header, 0, sizeof *header);
    if (setjmp(d->err.jump)) return fail(d);
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    d->input_bytes = size;
    return read_header_from_source(d, header);
}

cjpeg_status cjpeg_decoder_prepare(cjpeg_decoder *d, unsigned scale_num, unsigned scale_denom,
                                   int cmyk, uint32_t *out_width, uint32_t *out_height) {
    if (!d || d->failed || d->state != STATE_HEADER) return bad_call(d, "prepare called out of order");
    if (scale_num == 0 || scale_denom == 0) return bad_call(d, "scale must be positive");
    if (setjmp(d->err.jump)) return fail(d);
    d->cinfo.scale_num = scale_num;
    d->cinfo.scale_denom = scale_denom;
    d->cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_BGRX;
    jpeg_calc_output_dimensions(&d->cinfo);
    if (d->cinfo.out_color_components != 4) {
        snprintf(d->err.message, sizeof d->err.message, "unexpected output components %d",
                 d->cinfo.out_color_components);
        d->failed = 1;
        return CJPEG_UNSUPPORTED;
    }
    *out_width = d->cinfo.output_width;
    *out_height = d->cinfo.output_height;
    d->state = STATE_PREPARED;
    return CJPEG_OK;
}

// MARK: DC-only progressive decoding
//
// A progressive JPEG is decoded into whole-image coefficient buffers (64 coefficients of 2 bytes
// per 8x8 block, every component: 88 MB for a 5120x2880 4:4:4 photo), even at 1/8 scale. At 1/8
// the luma IDCT is 1x1 and reads only the DC coefficient, and the DC scan comes first in a
// progressive file. So for 1/8 decodes the shim replaces libjpeg's virtual block arrays (through
// the public memory-manager methods) with a store of DC coefficients only, reads scans until
// every component's DC has arrived, and outputs from those: 1/64 of the memory, and the AC scans
// (most of the file) are never decoded. Luma is what a full 1/8 decode gives, except the DC's
// last successive-approximation bits when the DC refinement scan comes later (at most one
// quantisation step of DC); subsampled chroma, whose IDCT is 2x2 there, loses its AC detail.

static struct dc_array *dc_array_of(cjpeg_decoder *d, jvirt_barray_ptr ptr) {
    for (int i = 0; i < d->dc_array_count; i++) {
        if ((jvirt_barray_ptr)(void *)&d->dc_arrays[i] == ptr) return &d->dc_arrays[i];
    }
    return NULL;
}

static jvirt_barray_ptr dc_request_virt_barray(j_common_ptr cinfo, int pool_id, boolean pre_zero,
                                               JDIMENSION blocks_per_row, JDIMENSION rows,
                                               JDIMENSION max_access) {
    cjpeg_decoder *d = (cjpeg_decoder *)cinfo->client_data;
    if (pool_id != JPOOL_IMAGE || d->dc_array_count == MAX_COMPONENTS) {
        return d->base_request_virt_barray(cinfo, pool_id, pre_zero, blocks_per_row, rows, max_access);
    }
    struct dc_array *a = &d->dc_arrays[d->dc_array_count++];
    memset(a, 0, sizeof *a);
    a->blocks_per_row = blocks_per_row;
    a->rows = rows;
    a->max_access = max_access;
    return (jvirt_barray_ptr)(void *)a;
}

static void dc_realize_virt_arrays(j_common_ptr cinfo) {
    cjpeg_decoder *d = (cjpeg_decoder *)cinfo->client_data;
    d->base_realize_virt_arrays(cinfo);
    for (int i = 0; i < d->dc_array_count; i++) {
        struct dc_array *a = &d->dc_arrays[i];
        size_t bytes = (size_t)a->blocks_per_row * a->rows * sizeof(JCOEF);
        a->dc = (JCOEF *)cinfo->mem->alloc_large(cinfo, JPOOL_IMAGE, bytes);
        memset(a->dc, 0, bytes);
        a->window = cinfo->mem->alloc_barray(cinfo, JPOOL_IMAGE, a->blocks_per_row, a->max_access);
    }
}

static JBLOCKARRAY dc_access_virt_barray(j_common_ptr cinfo, jvirt_barray_ptr ptr, JDIMENSION start_row,
                                         JDIMENSION num_rows, boolean writable) {
    cjpeg_decoder *d = (cjpeg_decoder *)cinfo->client_data;
    struct dc_array *a = dc_array_of(d, ptr);
    if (!a) return d->base_access_virt_barray(cinfo, ptr, start_row, num_rows, writable);
    if (num_rows > a->max_access || start_row + num_rows > a->rows || !a->dc) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    // libjpeg is done with the previous window when it asks for the next one.
    if (a->window_dirty) {
        for (JDIMENSION r = 0; r < a->window_rows; r++) {
            JCOEF *dc = a->dc + (size_t)(a->window_start + r) * a->blocks_per_row;
            for (JDIMENSION b = 0; b < a->blocks_per_row; b++) dc[b] = a->window[r][b][0];
        }
    }
    for (JDIMENSION r = 0; r < num_rows; r++) {
        const JCOEF *dc = a->dc + (size_t)(start_row + r) * a->blocks_per_row;
        memset(a->window[r], 0, (size_t)a->blocks_per_row * sizeof(JBLOCK));
        for (JDIMENSION b = 0; b < a->blocks_per_row; b++) a->window[r][b][0] = dc[b];
    }
    a->window_start = start_row;
    a->window_rows = num_rows;
    a->window_dirty = writable;
    return a->window;
}

// 1/8 scale of a progressive file: the luma IDCT is 1x1.
static int wants_dc_only(const cjpeg_decoder *d) {
    if (!d->allows_dc_only || !d->cinfo.progressive_mode) return 0;
#if JPEG_LIB_VERSION >= 70
    return d->cinfo.min_DCT_h_scaled_size == 1 && d->cinfo.min_DCT_v_scaled_size == 1;
#else
    return d->cinfo.min_DCT_scaled_size == 1;
#endif
}

static int dc_complete(const struct jpeg_decompress_struct *cinfo) {
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        if (cinfo->coef_bits[ci][0] < 0) return 0;
    }
    return 1;
}

// Called under the caller's setjmp instead of jpeg_start_decompress. Reads scans until every
// component's DC is in (or the data ends), then starts an output pass of that state; the rest
// of the file is abandoned when the rows are out (jpeg_abort_decompress).
static void start_dc_only(cjpeg_decoder *d) {
    struct jpeg_memory_mgr *mem = d->cinfo.mem;
    d->base_request_virt_barray = mem->request_virt_barray;
    d->base_realize_virt_arrays = mem->realize_virt_arrays;
    d->base_access_virt_barray = mem->access_virt_barray;
    mem->request_virt_barray = dc_request_virt_barray;
    mem->realize_virt_arrays = dc_realize_virt_arrays;
    mem->access_virt_barray = dc_access_virt_barray;
    d->used_dc_only = 1;
    d->cinfo.buffered_image = TRUE;
    d->cinfo.do_block_smoothing = FALSE;  // it would read neighbouring rows' AC estimates
    jpeg_start_decompress(&d->cinfo);
    for (;;) {
        int status = jpeg_consume_input(&d->cinfo);
        if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
        if (status == JPEG_SCAN_COMPLETED && dc_complete(&d->cinfo)) break;
    }
    jpeg_start_output(&d->cinfo, d->cinfo.input_scan_number);
}

/// Reads every remaining scanline into `pixels` (rows `stride` bytes apart), 16 at a time.
static void read_all_rows(cjpeg_decoder *d, uint8_t *pixels, size_t stride) {
    while (d->cinfo.output_scanline < d->cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION first = d->cinfo.output_scanline;
        JDIMENSION count = d->cinfo.output_height - first;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * stride;
        if (jpeg_read_scanlines(&d->cinfo, rows, count) == 0) break;  // cannot happen with a memory source
    }
}

static void decode_dc_only(cjpeg_decoder *d, uint8_t *pixels, size_t stride) {
    start_dc_only(d);
    read_all_rows(d, pixels, stride);
    d->image_warnings = d->err.warnings;
    d->err.strict = 0;
    jpeg_abort_decompress(&d->cinfo);  // the remaining scans are not needed
}

struct cjpeg_compact_store *cjpeg_compact_store_of(j_common_ptr cinfo) {
    return &((cjpeg_decoder *)cinfo->client_data)->compact;
}

static int wants_compact(const cjpeg_decoder *d) {
    return d->allows_compact && d->cinfo.progressive_mode && !wants_dc_only(d);
}

// jpeg_start_decompress, with a progressive file's coefficients packed (see cjpeg_compact.h).
static void start_full(cjpeg_decoder *d) {
    if (wants_compact(d)) {
        cjpeg_compact_install(&d->cinfo, &d->compact);
        d->used_compact = 1;
        // Block smoothing only acts on files whose scans stop early (truncated): it estimates
        // missing AC coefficients from the neighbours' DC, and over packed windows its result
        // differs from libjpeg's by a few levels. Such files decode unsmoothed.
        d->cinfo.do_block_smoothing = FALSE;
    }
    jpeg_start_decompress(&d->cinfo);
}

size_t cjpeg_decoder_coefficient_bytes(const cjpeg_decoder *d) {
    if (!d || d->state != STATE_PREPARED || !d->cinfo.progressive_mode) return 0;
    size_t blocks = 0;
    for (int ci = 0; ci < d->cinfo.num_components; ci++) {
        const jpeg_component_info *c = &d->cinfo.comp_info[ci];
        size_t wide = (c->width_in_blocks + c->h_samp_factor - 1) / c->h_samp_factor * c->h_samp_factor;
        size_t high = (c->height_in_blocks + c->v_samp_factor - 1) / c->v_samp_factor * c->v_samp_factor;
        blocks += wide * high;
    }
    if (wants_dc_only(d)) return blocks * sizeof(JCOEF);
    if (!wants_compact(d)) return blocks * sizeof(JBLOCK);
    // Packed: a mask per block plus the nonzero values, mostly one byte each. Measured on photos
    // (a 5640x3172 q100 one: 22 MB of values for 16 MB of file) the values take about 1.4 bytes
    // per byte of compressed data; 2 leaves a margin. Never more than unpacked.
    size_t packed = blocks * sizeof(uint64_t) + d->input_bytes * 2;
    size_t whole = blocks * sizeof(JBLOCK);
    return packed < whole ? packed : whole;
}

size_t cjpeg_decoder_coefficient_peak_bytes(const cjpeg_decoder *d) { return d ? d->compact.peak_bytes : 0; }
int cjpeg_decoder_used_compact(const cjpeg_decoder *d) { return d ? d->used_compact : 0; }
void cjpeg_decoder_allow_compact(cjpeg_decoder *d, int allow) {
    if (d) d->allows_compact = allow ? 1 : 0;
}

void cjpeg_decoder_allow_dc_only(cjpeg_decoder *d, int allow) {
    if (d) d->allows_dc_only = allow ? 1 : 0;
}

int cjpeg_decoder_used_dc_only(const cjpeg_decoder *d) { return d ? d->used_dc_only : 0; }

cjpeg_status cjpeg_decoder_decode(cjpeg_decoder *d, uint8_t *pixels, size_t stride) {
    if (!d || d->failed || d->state != STATE_PREPARED || !pixels) return bad_call(d, "decode called out of order");
    if (setjmp(d->err.jump)) return fail(d);
    if (wants_dc_only(d)) {
        decode_dc_only(d, pixels, stride);
        d->state = STATE_DONE;
        return CJPEG_OK;
    }
    start_full(d);
    read_all_rows(d, pixels, stride);
    // Every row is out. Problems after this point (a missing EOI) do not damage the image:
    // neither count them nor fail on them in strict mode.
    d->image_warnings = d->err.warnings;
    d->err.strict = 0;
    jpeg_finish_decompress(&d->cinfo);
    cjpeg_compact_release(&d->compact);
    d->state = STATE_DONE;
    return CJPEG_OK;
}

const char *cjpeg_decoder_message(const cjpeg_decoder *d) {
    if (!d) return "out of memory";
    return d->err.message[0] ? d->err.message : d->err.first_warning;
}

long cjpeg_decoder_warning_count(const cjpeg_decoder *d) {
    if (!d) return 0;
    return d->state == STATE_DONE ? d->image_warnings : d->err.warnings;
}
int cjpeg_decoder_saw_truncation(const cjpeg_decoder *d) { return d ? d->err.saw_truncation : 0; }
const char *cjpeg_decoder_first_warning(const cjpeg_decoder *d) { return d ? d->err.first_warning : ""; }

// MARK: Band decoding

cjpeg_status cjpeg_decoder_read_header_file(cjpeg_decoder *d, FILE *file, cjpeg_header *header) {
    if (!d || d->failed || d->state != STATE_NEW || !header || !file) return bad_call(d, "read_header_file called out of order");
    memset(header, 0, sizeof *header);
    if (setjmp(d->err.jump)) return fail(d);
    jpeg_stdio_src(&d->cinfo, file);
    struct stat info;
    d->input_bytes = fstat(fileno(file), &info) == 0 && info.st_size > 0 ? (size_t)info.st_size : 0;
    return read_header_from_source(d, header);
}

cjpeg_status cjpeg_decoder_start_rows(cjpeg_decoder *d) {
    if (!d || d->failed || d->state != STATE_PREPARED) return bad_call(d, "start_rows called out of order");
    if (setjmp(d->err.jump)) return fail(d);
    if (wants_dc_only(d)) start_dc_only(d);
    else start_full(d);
    d->state = STATE_ROWS;
    return CJPEG_OK;
}

cjpeg_status cjpeg_decoder_read_rows(cjpeg_decoder *d, uint8_t *pixels, size_t stride,
                                     uint32_t max_rows, uint32_t *rows_read) {
    if (rows_read) *rows_read = 0;
    if (!d || d->failed || d->state != STATE_ROWS || !pixels || !rows_read) return bad_call(d, "read_rows called out of order");
    if (setjmp(d->err.jump)) return fail(d);
    uint32_t done = 0;
    while (done < max_rows && d->cinfo.output_scanline < d->cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = max_rows - done;
        if (count > 16) count = 16;
        for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(&d->cinfo, rows, count);
        if (got == 0) break;  // a stdio source at end of file: libjpeg pads with grey and warns
        done += got;
    }
    *rows_read = done;
    return CJPEG_OK;
}

cjpeg_status cjpeg_decoder_finish_rows(cjpeg_decoder *d) {
    if (!d || d->failed || d->state != STATE_ROWS) return bad_call(d, "finish_rows called out of order");
    if (setjmp(d->err.jump)) return fail(d);
    d->image_warnings = d->err.warnings;
    d->err.strict = 0;
    // The DC-only path leaves the rest of the file unread.
    if (d->used_dc_only || d->cinfo.output_scanline < d->cinfo.output_height) jpeg_abort_decompress(&d->cinfo);
    else jpeg_finish_decompress(&d->cinfo);
    cjpeg_compact_release(&d->compact);
    d->state = STATE_DONE;
    return CJPEG_OK;
}

// MARK: Encoder

// A growing malloc'd destination; unlike jpeg_mem_dest it never leaks when an error longjmps
// out half-way (the buffer stays reachable from the encoder struct).
struct growing_destination {
    struct jpeg_destination_mgr pub;
    uint8_t *buffer;
    size_t capacity;
    size_t length;
};

static void dest_init(j_compress_ptr cinfo) {
    struct growing_destination *dest = (struct growing_destination *)cinfo->dest;
    dest->capacity = 65536;
    dest->buffer = malloc(dest->capacity);
    if (!dest->buffer) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    dest->pub.next_output_byte = dest->buffer;
    dest->pub.free_in_buffer = dest->capacity;
}

static boolean dest_empty(j_compress_ptr cinfo) {
    struct growing_destination *dest = (struct growing_destination *)cinfo->dest;
    size_t used = dest->capacity;  // called only when the whole buffer is full
    uint8_t *bigger = realloc(dest->buffer, dest->capacity * 2);
    if (!bigger) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    dest->buffer = bigger;
    dest->capacity *= 2;
    dest->pub.next_output_byte = dest->buffer + used;
    dest->pub.free_in_buffer = dest->capacity - used;
    return TRUE;
}

static void dest_term(j_compress_ptr cinfo) {
    struct growing_destination *dest = (struct growing_destination *)cinfo->dest;
    dest->length = dest->capacity - dest->pub.free_in_buffer;
}

struct cjpeg_encoder {
    struct jpeg_compress_struct cinfo;
    struct cjpeg_error_manager err;
    struct growing_destination dest;
};

static cjpeg_status run_encoder(struct cjpeg_encoder *e, const cjpeg_encode_params *p) {
    if (setjmp(e->err.jump)) return classify(&e->err);
    jpeg_create_compress(&e->cinfo);
    e->cinfo.dest = &e->dest.pub;
    e->dest.pub.init_destination = dest_init;
    e->dest.pub.empty_output_buffer = dest_empty;
    e->dest.pub.term_destination = dest_term;

    e->cinfo.image_width = p->width;
    e->cinfo.image_height = p->height;
    switch (p->input) {
    case CJPEG_INPUT_CMYK:
        e->cinfo.in_color_space = JCS_CMYK;
        e->cinfo.input_components = 4;
        break;
    case CJPEG_INPUT_GRAY:
        e->cinfo.in_color_space = JCS_GRAYSCALE;
        e->cinfo.input_components = 1;
        break;
    default:
        e->cinfo.in_color_space = JCS_EXT_BGRX;
        e->cinfo.input_components = 4;
        break;
    }
    jpeg_set_defaults(&e->cinfo);
    if (p->grayscale && p->input == CJPEG_INPUT_BGRX) jpeg_set_colorspace(&e->cinfo, JCS_GRAYSCALE);
    if (p->ycck && p->input == CJPEG_INPUT_CMYK) jpeg_set_colorspace(&e->cinfo, JCS_YCCK);
    jpeg_set_quality(&e->cinfo, p->quality, TRUE);
    if (p->full_chroma && e->cinfo.num_components > 1) {
        e->cinfo.comp_info[0].h_samp_factor = 1;
        e->cinfo.comp_info[0].v_samp_factor = 1;
    }
    if (p->progressive) jpeg_simple_progression(&e->cinfo);
    e->cinfo.arith_code = p->arithmetic ? TRUE : FALSE;
    e->cinfo.restart_interval = p->restart_interval;
    for (int i = 0; i < p->marker_count; i++) {
        // An EXIF APP1 should come first; JFIF's APP0 would precede it.
        if (p->markers[i].marker == JPEG_APP0 + 1) e->cinfo.write_JFIF_header = FALSE;
    }

    jpeg_start_compress(&e->cinfo, TRUE);
    for (int i = 0; i < p->marker_count; i++) {
        jpeg_write_marker(&e->cinfo, p->markers[i].marker, p->markers[i].data,
                          (unsigned int)p->markers[i].length);
    }
    while (e->cinfo.next_scanline < e->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(p->pixels + (size_t)e->cinfo.next_scanline * p->stride);
        jpeg_write_scanlines(&e->cinfo, &row, 1);
    }
    jpeg_finish_compress(&e->cinfo);
    return CJPEG_OK;
}

cjpeg_status cjpeg_encode(const cjpeg_encode_params *params, uint8_t **out, size_t *out_length,
                          char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (message_capacity) message[0] = 0;
    if (!params || !params->pixels || params->width == 0 || params->height == 0 ||
        params->quality < 1 || params->quality > 100 || params->marker_count < 0) {
        if (message_capacity) snprintf(message, message_capacity, "invalid encoder parameters");
        return CJPEG_BAD_CALL;
    }
    for (int i = 0; i < params->marker_count; i++) {
        if (params->markers[i].length > 65533) {
            if (message_capacity) snprintf(message, message_capacity, "marker %d longer than 65533 bytes", i);
            return CJPEG_BAD_CALL;
        }
    }
    struct cjpeg_encoder *e = calloc(1, sizeof *e);
    if (!e) {
        if (message_capacity) snprintf(message, message_capacity, "out of memory");
        return CJPEG_NO_MEMORY;
    }
    init_error_manager(&e->err, 0);
    e->cinfo.err = &e->err.pub;
    cjpeg_status status = run_encoder(e, params);
    if (status == CJPEG_OK) {
        *out = e->dest.buffer;
        *out_length = e->dest.length;
    } else {
        free(e->dest.buffer);
        if (message_capacity) snprintf(message, message_capacity, "%s", e->err.message);
    }
    jpeg_destroy_compress(&e->cinfo);
    free(e);
    return status;
}

void cjpeg_free(void *pointer) { free(pointer); }
