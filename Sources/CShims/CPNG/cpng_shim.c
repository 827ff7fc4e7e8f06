#include "CPNG.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Our error function longjmps to a jmp_buf in our own (heap) struct instead of png_jmpbuf, so
// state that must survive the jump lives in memory, never in clobberable locals.

enum { STATE_NEW, STATE_HEADER, STATE_ROWS_DONE, STATE_DONE };

struct cpng_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    jmp_buf jump;
    char message[256];
    long warnings;
    cpng_stop_check stop_check;
    void *stop_context;
    int truncated;
    int failed;
    int state;
};

static void decoder_error(png_structp png, png_const_charp text) {
    cpng_decoder *d = png_get_error_ptr(png);
    snprintf(d->message, sizeof d->message, "%s", text);
    longjmp(d->jump, 1);
}

static void decoder_warning(png_structp png, png_const_charp text) {
    (void)text;
    cpng_decoder *d = png_get_error_ptr(png);
    d->warnings++;
}

static void decoder_read(png_structp png, png_bytep out, size_t length) {
    cpng_decoder *d = png_get_io_ptr(png);
    if (length > d->size - d->offset) {
        d->truncated = 1;
        png_error(png, "PNG data ends early");
    }
    memcpy(out, d->data + d->offset, length);
    d->offset += length;
}

cpng_decoder *cpng_decoder_create(const uint8_t *data, size_t size) {
    cpng_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->data = data;
    d->size = data ? size : 0;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, decoder_error, decoder_warning);
    if (!d->png) {
        free(d);
        return NULL;
    }
    if (setjmp(d->jump)) {  // png_create_info_struct errors only when out of memory
        png_destroy_read_struct(&d->png, NULL, NULL);
        free(d);
        return NULL;
    }
    d->info = png_create_info_struct(d->png);
    png_set_read_fn(d->png, d, decoder_read);
    // On a read struct this sets how much IDAT data libpng asks for at once (default 8 KB):
    // smaller reads mean a truncated file keeps more of its complete rows.
    png_set_compression_buffer_size(d->png, 1024);
    return d;
}

void cpng_decoder_set_stop_check(cpng_decoder *d, cpng_stop_check check, void *context) {
    if (!d) return;
    d->stop_check = check;
    d->stop_context = context;
}

void cpng_decoder_destroy(cpng_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, &d->info, NULL);
    free(d);
}

static cpng_status fail(cpng_decoder *d) {
    d->failed = 1;
    if (d->truncated) return CPNG_TRUNCATED;
    if (strstr(d->message, "memory") != NULL) return CPNG_NO_MEMORY;
    return CPNG_CORRUPT;
}

cpng_status cpng_decoder_read_header(cpng_decoder *d, cpng_header *header) {
    if (!d || !header || d->failed || d->state != STATE_NEW) return CPNG_BAD_CALL;
    memset(header, 0, sizeof *header);
    if (setjmp(d->jump)) return fail(d);
    png_read_info(d->png, d->info);
    header->width = png_get_image_width(d->png, d->info);
    header->height = png_get_image_height(d->png, d->info);
    header->bit_depth = png_get_bit_depth(d->png, d->info);
    header->color_type = png_get_color_type(d->png, d->info);
    header->interlaced = png_get_interlace_type(d->png, d->info) != PNG_INTERLACE_NONE;
    header->has_transparency = (header->color_type & PNG_COLOR_MASK_ALPHA) ||
                               png_get_valid(d->png, d->info, PNG_INFO_tRNS);
    d->state = STATE_HEADER;
    return CPNG_OK;
}

cpng_status cpng_decoder_decode(cpng_decoder *d, uint8_t *pixels, size_t stride, uint32_t *rows_done) {
    if (!d || !pixels || !rows_done || d->failed || d->state != STATE_HEADER) return CPNG_BAD_CALL;
    *rows_done = 0;
    if (setjmp(d->jump)) {
        // Every row arrived and only the end is missing (IEND): the picture is complete.
        // A CRC or zlib error there still fails: the data is damaged.
        if (d->state == STATE_ROWS_DONE && d->truncated) {
            d->warnings++;
            d->state = STATE_DONE;
            return CPNG_OK;
        }
        return fail(d);
    }
    png_structp png = d->png;
    png_infop info = d->info;
    int color_type = png_get_color_type(png, info);
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    png_set_expand(png);      // palette → RGB, gray below 8 bits → 8, tRNS → alpha
    png_set_scale_16(png);    // 16 → 8 bits, rounded
    png_set_gray_to_rgb(png);
    png_set_bgr(png);
    if (!has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    uint32_t width = png_get_image_width(png, info);
    uint32_t height = png_get_image_height(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row layout after transforms");
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            if ((y & 15) == 0 && d->stop_check && d->stop_check(d->stop_context)) {
                snprintf(d->message, sizeof d->message, "decoding cancelled");
                d->failed = 1;
                return CPNG_CANCELLED;
            }
            png_read_row(png, pixels + (size_t)y * stride, NULL);
            if (pass == passes - 1) *rows_done = y + 1;
        }
    }
    d->state = STATE_ROWS_DONE;
    png_read_end(png, NULL);
    d->state = STATE_DONE;
    return CPNG_OK;
}

const char *cpng_decoder_message(const cpng_decoder *d) { return d ? d->message : "out of memory"; }
long cpng_decoder_warning_count(const cpng_decoder *d) { return d ? d->warnings : 0; }

// MARK: Encoder

struct cpng_encoder {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    char message[256];
    uint8_t *buffer;
    size_t length;
    size_t capacity;
};

static void encoder_error(png_structp png, png_const_charp text) {
    struct cpng_encoder *e = png_get_error_ptr(png);
    snprintf(e->message, sizeof e->message, "%s", text);
    longjmp(e->jump, 1);
}

static void encoder_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void encoder_write(png_structp png, png_bytep data, size_t length) {
    struct cpng_encoder *e = png_get_io_ptr(png);
    if (length > e->capacity - e->length) {
        size_t capacity = e->capacity ? e->capacity : 65536;
        while (capacity - e->length < length) capacity *= 2;
        uint8_t *bigger = realloc(e->buffer, capacity);
        if (!bigger) png_error(png, "out of memory");
        e->buffer = bigger;
        e->capacity = capacity;
    }
    memcpy(e->buffer + e->length, data, length);
    e->length += length;
}

static void encoder_flush(png_structp png) { (void)png; }

static cpng_status run_encoder(struct cpng_encoder *e, const uint8_t *pixels, uint32_t width,
                               uint32_t height, size_t stride, int compression) {
    if (setjmp(e->jump)) return strstr(e->message, "memory") ? CPNG_NO_MEMORY : CPNG_CORRUPT;
    e->info = png_create_info_struct(e->png);
    png_set_write_fn(e->png, e, encoder_write, encoder_flush);
    png_set_IHDR(e->png, e->info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(e->png, compression);
    png_write_info(e->png, e->info);
    png_set_bgr(e->png);
    png_set_filler(e->png, 0, PNG_FILLER_AFTER);  // on write: drop the X byte
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(e->png, (png_const_bytep)(pixels + (size_t)y * stride));
    }
    png_write_end(e->png, e->info);
    return CPNG_OK;
}

cpng_status cpng_encode_bgrx(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                             int compression, uint8_t **out, size_t *out_length,
                             char *message, size_t message_capacity) {
    *out = NULL;
    *out_length = 0;
    if (message_capacity) message[0] = 0;
    if (!pixels || width == 0 || height == 0 || stride < (size_t)width * 4 || compression < 0 || compression > 9) {
        if (message_capacity) snprintf(message, message_capacity, "invalid encoder parameters");
        return CPNG_BAD_CALL;
    }
    struct cpng_encoder *e = calloc(1, sizeof *e);
    if (!e) return CPNG_NO_MEMORY;
    e->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, e, encoder_error, encoder_warning);
    if (!e->png) {
        free(e);
        return CPNG_NO_MEMORY;
    }
    cpng_status status = run_encoder(e, pixels, width, height, stride, compression);
    if (status == CPNG_OK) {
        *out = e->buffer;
        *out_length = e->length;
    } else {
        free(e->buffer);
        if (message_capacity) snprintf(message, message_capacity, "%s", e->message);
    }
    png_destroy_write_struct(&e->png, &e->info);
    free(e);
    return status;
}

void cpng_free(void *pointer) { free(pointer); }
