import CLibHeif
import Graphics

/// HEIC files written through libheif's encoder API (the x265 encoder heif-enc uses), for the
/// two fixtures heif-enc 1.15 cannot make: a primary image with irot/imir transformations, and
/// an embedded thumbnail whose content differs from the main image (so a test can tell which
/// one was decoded).
public struct HEIFWriter {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Stored pixels of the primary image.
    public var image: Bitmap
    /// EXIF-numbered transformation written as irot/imir (1 = none).
    public var orientation: Int
    /// A thumbnail item encoded from this bitmap, scaled to fit `thumbnailBox`.
    public var thumbnail: Bitmap?
    public var thumbnailBox: Int
    public var quality: Int

    public init(image: Bitmap, orientation: Int = 1, thumbnail: Bitmap? = nil, thumbnailBox: Int = 0, quality: Int = 92) {
        self.image = image
        self.orientation = orientation
        self.thumbnail = thumbnail
        self.thumbnailBox = thumbnailBox
        self.quality = quality
    }

    public func write(to path: String) throws {
        guard let context = heif_context_alloc() else { throw Failure(description: "heif_context_alloc failed") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)))
        let options = heif_encoding_options_alloc()!
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))

        let main = try Self.rgbImage(image)
        defer { heif_image_release(main) }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, main, encoder, options, &handle))
        defer { heif_image_handle_release(handle) }
        if let thumbnail {
            let thumb = try Self.rgbImage(thumbnail)
            defer { heif_image_release(thumb) }
            try check(heif_context_encode_thumbnail(context, thumb, handle, encoder, options, Int32(thumbnailBox), nil))
        }
        try check(heif_context_write_to_file(context, path))
    }

    private static func rgbImage(_ bitmap: Bitmap) throws -> OpaquePointer {
        var image: OpaquePointer?
        try check(heif_image_create(Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image))
        guard let image else { throw Failure(description: "heif_image_create gave no image") }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8))
        var stride: Int32 = 0
        let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)!
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let c = bitmap.color(x: x, y: y), p = plane + y * Int(stride) + x * 3
                p[0] = c.red
                p[1] = c.green
                p[2] = c.blue
            }
        }
        return image
    }

    private func check(_ error: heif_error) throws { try Self.check(error) }

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw Failure(description: "libheif: \(error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")")
    }
}
