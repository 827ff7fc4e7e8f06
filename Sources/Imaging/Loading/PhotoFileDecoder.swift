import Graphics

/// The decoder the app's image loader runs on its workers: opens a photo file once, reads its
/// header, and decodes it at the size its `SizeClass` asks for.
///
/// Thumbnails are for square grid cells that crop to fill, so a thumbnail *covers* an
/// edge × edge square (its short side is the edge) rather than fitting inside it — otherwise
/// every landscape cell would be upscaled. Panoramas are capped at 3 × edge on the long side.
public struct PhotoFileDecoder: ImageSourceDecoder {
    public var options: DecodeOptions
    /// Where decodes with large working buffers wait their turn (shared by all workers).
    public var memoryGate: DecodeMemoryGate

    public init(options: DecodeOptions = .default, memoryGate: DecodeMemoryGate = .shared) {
        self.options = options
        self.memoryGate = memoryGate
    }

    /// The largest long side a thumbnail may have, as a multiple of its edge.
    public static let maxThumbnailAspect = 3.0

    public func decode(_ request: ImageRequest) throws -> LoadedImage {
        let path = request.path.description
        do throws(ImagingError) {
            // The file streams into the decoder (see ImageDecoder.decode(path:)): a big JPEG is
            // never held whole next to its decode. The result keeps the header's original size.
            switch request.size {
            case .full:
                return LoadedImage(try ImageDecoder.decode(path: request.path, fitting: nil, options: options, memoryGate: memoryGate))
            case let .screen(width, height):
                return LoadedImage(try ImageDecoder.decode(path: request.path, fitting: Size(width: width, height: height),
                                                           options: options, memoryGate: memoryGate))
            case let .thumbnail(edge):
                // The size depends on the photo's shape: it is picked once the header is read,
                // inside the one decode (the file is opened and its header parsed once).
                return LoadedImage(try ImageDecoder.decode(path: request.path, options: options,
                                                           memoryGate: memoryGate) { (info) throws(ImagingError) in
                    let box = Self.thumbnailBox(for: info.orientedSize, edge: edge)
                    if let embedded = try? Self.embeddedThumbnail(of: info, box: box, options: options) {
                        var details = info
                        details.exif?.thumbnail = nil  // results travel to caches' neighbours: no unaccounted bytes
                        return .finished(DecodedImage(bitmap: embedded, originalSize: info.orientedSize,
                                                      isPartial: false, info: details))
                    }
                    return .fit(box)
                })
            }
        } catch {
            throw error.attributed(to: path)
        }
    }

    /// The camera's own EXIF thumbnail when it is big enough to cover the box and has the photo's
    /// shape (a letterboxed 160x120 of a 16:9 photo would show black bars): decoding a few
    /// kilobytes instead of megabytes makes the first paint of a camera folder fast.
    static func embeddedThumbnail(of info: ImageInfo, box: Size, options: DecodeOptions) throws -> Bitmap? {
        guard info.exif?.thumbnail != nil,
              let decoded = try ImageDecoder.decodeEmbeddedThumbnail(of: info, fitting: nil, options: options) else { return nil }
        let thumb = decoded.bitmap.size, photo = info.orientedSize
        guard thumb.width >= box.width, thumb.height >= box.height, !photo.isEmpty,
              abs(thumb.width / thumb.height - photo.width / photo.height) < 0.02 else { return nil }
        let target = ImageDecoder.fittedSize(of: thumb, in: box)
        if target == (decoded.bitmap.width, decoded.bitmap.height) { return decoded.bitmap }
        return Resampler.resize(decoded.bitmap, width: target.width, height: target.height)
    }

    /// The box a thumbnail of a photo of `size` is fitted into so that it covers edge × edge.
    public static func thumbnailBox(for size: Size, edge: Int) -> Size {
        let e = Double(max(1, edge))
        guard !size.isEmpty else { return Size(width: e, height: e) }
        let scale = max(e / size.width, e / size.height)
        let cap = e * maxThumbnailAspect
        return Size(width: min(cap, (size.width * scale).rounded(.up)), height: min(cap, (size.height * scale).rounded(.up)))
    }
}
