#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <libheif/heif.h>

/// libheif reached through dlopen on the first HEIF or AVIF photo, so a frame that never shows
/// one does not map libheif and the codecs it links (libde265, libaom, dav1d, x265, libnuma:
/// about 2 MB of resident pages at startup, measured). Types and constants come from libheif's
/// own header; each `cheif_NAME` below calls libheif's `heif_NAME` and may be used only after
/// cheif_load has returned true.

/// Loads libheif ("libheif.so.1") and looks up the functions below, once per process; later
/// calls return the first answer. False, with the reason in `error`, when the library or one of
/// its functions is missing.
bool cheif_load(char *error, size_t error_size);

/// The functions used (libheif 1.15's signatures): X for those returning a value, V for void.
#define CHEIF_FUNCTIONS(X, V)                                                                      \
    X(struct heif_context *, context_alloc, (void), ())                                           \
    V(context_free, (struct heif_context *context), (context))                                    \
    X(struct heif_error, context_read_from_memory_without_copy,                                   \
      (struct heif_context *context, const void *memory, size_t size,                             \
       const struct heif_reading_options *options), (context, memory, size, options))             \
    X(struct heif_error, context_get_primary_image_handle,                                        \
      (struct heif_context *context, struct heif_image_handle **handle), (context, handle))       \
    V(image_handle_release, (const struct heif_image_handle *handle), (handle))                   \
    X(int, image_handle_get_width, (const struct heif_image_handle *handle), (handle))            \
    X(int, image_handle_get_height, (const struct heif_image_handle *handle), (handle))           \
    X(int, image_handle_has_alpha_channel, (const struct heif_image_handle *handle), (handle))    \
    X(int, image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle *handle),        \
      (handle))                                                                                    \
    X(int, image_handle_get_list_of_metadata_block_IDs,                                           \
      (const struct heif_image_handle *handle, const char *type_filter, heif_item_id *ids,        \
       int count), (handle, type_filter, ids, count))                                             \
    X(size_t, image_handle_get_metadata_size,                                                     \
      (const struct heif_image_handle *handle, heif_item_id id), (handle, id))                    \
    X(struct heif_error, image_handle_get_metadata,                                               \
      (const struct heif_image_handle *handle, heif_item_id id, void *data), (handle, id, data))  \
    X(int, image_handle_get_number_of_thumbnails, (const struct heif_image_handle *handle),       \
      (handle))                                                                                    \
    X(int, image_handle_get_list_of_thumbnail_IDs,                                                \
      (const struct heif_image_handle *handle, heif_item_id *ids, int count), (handle, ids, count)) \
    X(struct heif_error, image_handle_get_thumbnail,                                              \
      (const struct heif_image_handle *handle, heif_item_id id,                                   \
       struct heif_image_handle **thumbnail), (handle, id, thumbnail))                            \
    X(struct heif_decoding_options *, decoding_options_alloc, (void), ())                         \
    V(decoding_options_free, (struct heif_decoding_options *options), (options))                  \
    X(struct heif_error, decode_image,                                                            \
      (const struct heif_image_handle *handle, struct heif_image **image,                         \
       enum heif_colorspace colorspace, enum heif_chroma chroma,                                  \
       const struct heif_decoding_options *options),                                              \
      (handle, image, colorspace, chroma, options))                                               \
    V(image_release, (const struct heif_image *image), (image))                                   \
    X(int, image_get_width, (const struct heif_image *image, enum heif_channel channel),          \
      (image, channel))                                                                            \
    X(int, image_get_height, (const struct heif_image *image, enum heif_channel channel),         \
      (image, channel))                                                                            \
    X(uint8_t *, image_get_plane, (struct heif_image *image, enum heif_channel channel,           \
                                   int *stride), (image, channel, stride))

#define CHEIF_DECLARE(type, name, parameters, arguments) type cheif_##name parameters;
#define CHEIF_DECLARE_VOID(name, parameters, arguments) void cheif_##name parameters;
CHEIF_FUNCTIONS(CHEIF_DECLARE, CHEIF_DECLARE_VOID)
#undef CHEIF_DECLARE
#undef CHEIF_DECLARE_VOID
