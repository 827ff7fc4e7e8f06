#include "cjpeg_compact.h"
#include <jerror.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static struct cjpeg_compact_array *array_of(struct cjpeg_compact_store *s, jvirt_barray_ptr ptr) {
    for (int i = 0; i < s->count; i++) {
        if ((jvirt_barray_ptr)(void *)&s->arrays[i] == ptr) return &s->arrays[i];
    }
    return NULL;
}

static void *checked_alloc(j_common_ptr cinfo, size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    return p;
}

// Most nonzero coefficients are small: one byte for -127...127, else an escape byte (-128)
// and the two bytes of the value.
static uint8_t *put_value(uint8_t *out, JCOEF value) {
    if (value >= -127 && value <= 127) {
        *out = (uint8_t)(int8_t)value;
        return out + 1;
    }
    *out = 0x80;
    memcpy(out + 1, &value, sizeof value);
    return out + 1 + sizeof value;
}

static const uint8_t *get_value(const uint8_t *in, JCOEF *value) {
    if (*in != 0x80) {
        *value = (JCOEF)(int8_t)*in;
        return in + 1;
    }
    memcpy(value, in + 1, sizeof *value);
    return in + 1 + sizeof *value;
}

// Packs one row of blocks: per block, the mask of nonzero coefficients, then their values.
static void pack_row(j_common_ptr cinfo, struct cjpeg_compact_store *s, struct cjpeg_compact_array *a,
                     JDIMENSION row, JBLOCKROW blocks) {
    uint8_t *out = s->scratch;
    for (JDIMENSION b = 0; b < a->blocks_per_row; b++) {
        const JCOEF *coef = blocks[b];
        uint64_t mask = 0;
        uint8_t *values = out + sizeof mask;
        for (int k = 0; k < DCTSIZE2; k++) {
            if (coef[k] != 0) {
                mask |= (uint64_t)1 << k;
                values = put_value(values, coef[k]);
            }
        }
        memcpy(out, &mask, sizeof mask);
        out = values;
    }
    size_t length = (size_t)(out - s->scratch);
    s->bytes -= a->row_length[row];
    free(a->row_data[row]);
    a->row_data[row] = NULL;
    a->row_length[row] = 0;
    if (length == a->blocks_per_row * sizeof(uint64_t)) return;  // all zero: nothing kept
    a->row_data[row] = checked_alloc(cinfo, length);
    memcpy(a->row_data[row], s->scratch, length);
    a->row_length[row] = length;
    s->bytes += length;
    if (s->bytes > s->peak_bytes) s->peak_bytes = s->bytes;
}

static void unpack_row(const struct cjpeg_compact_array *a, JDIMENSION row, JBLOCKROW blocks) {
    memset(blocks, 0, (size_t)a->blocks_per_row * sizeof(JBLOCK));
    const uint8_t *in = a->row_data[row];
    if (!in) return;
    for (JDIMENSION b = 0; b < a->blocks_per_row; b++) {
        uint64_t mask;
        memcpy(&mask, in, sizeof mask);
        in += sizeof mask;
        while (mask) {
            in = get_value(in, &blocks[b][__builtin_ctzll(mask)]);
            mask &= mask - 1;
        }
    }
}

static jvirt_barray_ptr compact_request(j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocks_per_row,
                                        JDIMENSION rows, JDIMENSION max_access) {
    struct cjpeg_compact_store *s = cjpeg_compact_store_of(cinfo);
    if (pool_id != JPOOL_IMAGE || s->count == MAX_COMPONENTS) {
        return s->base_request(cinfo, pool_id, pre_zero, blocks_per_row, rows, max_access);
    }
    struct cjpeg_compact_array *a = &s->arrays[s->count++];
    memset(a, 0, sizeof *a);
    a->blocks_per_row = blocks_per_row;
    a->rows = rows;
    a->max_access = max_access;
    return (jvirt_barray_ptr)(void *)a;
}

static void compact_realize(j_common_ptr cinfo) {
    struct cjpeg_compact_store *s = cjpeg_compact_store_of(cinfo);
    s->base_realize(cinfo);
    size_t widest = 0;
    for (int i = 0; i < s->count; i++) {
        struct cjpeg_compact_array *a = &s->arrays[i];
        a->row_data = checked_alloc(cinfo, (size_t)a->rows * sizeof *a->row_data);
        a->row_length = checked_alloc(cinfo, (size_t)a->rows * sizeof *a->row_length);
        a->window = cinfo->mem->alloc_barray(cinfo, JPOOL_IMAGE, a->blocks_per_row, a->max_access);
        if (a->blocks_per_row > widest) widest = a->blocks_per_row;
    }
    s->scratch_size = widest * (sizeof(uint64_t) + DCTSIZE2 * (1 + sizeof(JCOEF)));
    s->scratch = checked_alloc(cinfo, s->scratch_size);
}

static JBLOCKARRAY compact_access(j_common_ptr cinfo, jvirt_barray_ptr ptr, JDIMENSION start_row, JDIMENSION num_rows,
                                  boolean writable) {
    struct cjpeg_compact_store *s = cjpeg_compact_store_of(cinfo);
    struct cjpeg_compact_array *a = array_of(s, ptr);
    if (!a) return s->base_access(cinfo, ptr, start_row, num_rows, writable);
    if (num_rows > a->max_access || start_row + num_rows > a->rows || !a->row_data) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    // libjpeg is done with the previous window when it asks for the next one.
    if (a->window_dirty) {
        for (JDIMENSION r = 0; r < a->window_rows; r++) pack_row(cinfo, s, a, a->window_start + r, a->window[r]);
    }
    for (JDIMENSION r = 0; r < num_rows; r++) unpack_row(a, start_row + r, a->window[r]);
    a->window_start = start_row;
    a->window_rows = num_rows;
    a->window_dirty = writable;
    return a->window;
}

void cjpeg_compact_install(j_decompress_ptr cinfo, struct cjpeg_compact_store *store) {
    struct jpeg_memory_mgr *mem = cinfo->mem;
    store->base_request = mem->request_virt_barray;
    store->base_realize = mem->realize_virt_arrays;
    store->base_access = mem->access_virt_barray;
    mem->request_virt_barray = compact_request;
    mem->realize_virt_arrays = compact_realize;
    mem->access_virt_barray = compact_access;
}

void cjpeg_compact_release(struct cjpeg_compact_store *store) {
    int held = store->count > 0;
    for (int i = 0; i < store->count; i++) {
        struct cjpeg_compact_array *a = &store->arrays[i];
        if (a->row_data) {
            for (JDIMENSION r = 0; r < a->rows; r++) free(a->row_data[r]);
        }
        free(a->row_data);
        free(a->row_length);
        a->row_data = NULL;
        a->row_length = NULL;
    }
    store->count = 0;
    free(store->scratch);
    store->scratch = NULL;
    store->bytes = 0;
#ifdef __GLIBC__
    // The packed rows are many small blocks in this thread's malloc arena: without a trim
    // their pages stay resident after the decode, and the next photo's rows land elsewhere.
    if (held) malloc_trim(0);
#endif
}
