import Basics
import Graphics
import Testing
import TestSupport
@testable import Imaging

/// Issue 17: HEIF/HEIC, AVIF and WebP through the same interface as JPEG and PNG. Fixtures come
/// from the real encoders at test time; pixels are compared with the reference decoders.
@Suite("HEIF, AVIF and WebP decoding")
struct ModernFormatDecodeTests {
    let scratch = ScratchDirectory()
    var dir: String { scratch.path.description }

    static let scene = Fixtures.scene(width: 128, height: 96)

    func decode(_ path: String, fitting box: Size? = nil, options: DecodeOptions = .default) throws(ImagingError) -> DecodedImage {
        try ImageDecoder.decode(path: path, fitting: box, options: options)
    }

    // MARK: Recognised by content

    @Test(arguments: [EncodedFixture.Kind.heic, .avif, .webp, .webpLossless])
    func formatComesFromTheContentNotTheName(kind: EncodedFixture.Kind) throws {
        let path = try EncodedFixture.write(Self.scene, as: kind, to: dir, name: "photo")
        let misnamed = dir + "/photo-really.jpg"
        try FileReader.write(FileReader.read(path: path), to: misnamed)
        let info = try ImageDecoder.probe(path: misnamed)
        let expected: ImageFormat = kind == .heic ? .heif : kind == .avif ? .avif : .webp
        #expect(info.format == expected)
        #expect(info.pixelSize == Size(width: 128, height: 96))
        #expect(try decode(misnamed).bitmap.size == Size(width: 128, height: 96))
    }

    @Test func otherISOAndRIFFFilesAreNotImages() {
        // An MP4 video's ftyp is a clip (ClipDecodeTests), decoded from its file only; a WAV
        // file's RIFF header is nothing.
        let mp4: [UInt8] = [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8) + [UInt8](repeating: 0, count: 32)
        let wav: [UInt8] = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVEfmt ".utf8) + [UInt8](repeating: 0, count: 32)
        let clip = imagingError { () throws(ImagingError) in try ImageDecoder.probe(bytes: mp4) }
        #expect(clip?.kind == .unsupported)
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.probe(bytes: wav) }
        #expect(error?.kind == .notAnImage)
        #expect(error?.message.contains("HEIF/HEIC, AVIF or WebP") == true, "\(String(describing: error))")
    }

    @Test func avifBrandUnderAGenericMajorBrandIsAVIF() {
        func ftyp(_ brands: [String]) -> [UInt8] {
            let body = Array(brands[0].utf8) + [0, 0, 0, 0] + brands.dropFirst().flatMap { Array($0.utf8) }
            return [0, 0, 0, UInt8(8 + body.count)] + Array("ftyp".utf8) + body
        }
        #expect(ImageFormat.sniff(ftyp(["mif1", "mif1", "avif", "miaf"])) == .avif)
        #expect(ImageFormat.sniff(ftyp(["mif1", "mif1", "heic", "miaf"])) == .heif)
        #expect(ImageFormat.sniff(ftyp(["heic", "mif1", "heic"])) == .heif)
        #expect(ImageFormat.sniff(ftyp(["avif", "mif1"])) == .avif)
        #expect(ImageFormat.sniff(ftyp(["qt  ", "qt  "])) == .mp4Clip)
    }

    // MARK: Pixels against the reference decoders

    @Test(arguments: [EncodedFixture.Kind.heic, .avif])
    func heifAndAVIFMatchHeifConvert(kind: EncodedFixture.Kind) throws {
        let path = try EncodedFixture.write(Self.scene, as: kind, to: dir, name: "scene")
        let ours = try decode(path)
        #expect(!ours.isPartial)
        #expect(ours.originalSize == Size(width: 128, height: 96))
        let reference = try EncodedFixture.reference(of: path)
        let difference = PixelDifference(ours.bitmap, reference)
        #expect(difference.max <= 2, "against heif-convert: \(difference)")
        // And the encode was faithful enough that the picture is the scene.
        #expect(PixelDifference(ours.bitmap, Self.scene).mean < 6)
    }

    @Test func webpMatchesDwebpFullAndScaled() throws {
        let path = try EncodedFixture.write(Self.scene, as: .webp, to: dir, name: "scene")
        let full = try decode(path)
        #expect(PixelDifference(full.bitmap, try EncodedFixture.reference(of: path)).max <= 1)
        #expect(PixelDifference(full.bitmap, Self.scene).mean < 6)
        // Scaled in the decoder, by libwebp's own scaler, to the exact size.
        let scaled = try decode(path, fitting: Size(width: 50, height: 50))
        #expect(scaled.bitmap.size == Size(width: 50, height: 38))
        #expect(scaled.originalSize == Size(width: 128, height: 96))
        let reference = try EncodedFixture.reference(of: path, scaledTo: (50, 38))
        #expect(PixelDifference(scaled.bitmap, reference).max <= 1)
    }

    @Test func losslessWebPIsExact() throws {
        let path = try EncodedFixture.write(Self.scene, as: .webpLossless, to: dir, name: "lossless")
        #expect(PixelDifference(try decode(path).bitmap, Self.scene).max == 0)
    }

    /// An RGBA PNG: red fading out to the right, over a half-transparent blue band.
    static let alphaPNG: [UInt8] = {
        let width = 64, height = 48
        var samples: [Int] = []
        for y in 0..<height {
            for x in 0..<width {
                let alpha = y < 16 ? 128 : 255 - x * 255 / (width - 1)
                samples += y < 16 ? [0, 0, 255, alpha] : [255, 64, 0, alpha]
            }
        }
        return PNGFixture(width: width, height: height, colorType: .rgba, samples: samples).encode()
    }()

    @Test(arguments: [EncodedFixture.Kind.heic, .webp, .webpLossless])
    func alphaIsCompositedOverBlackLikePNG(kind: EncodedFixture.Kind) throws {
        let path = try EncodedFixture.write(png: Self.alphaPNG, as: kind, to: dir, name: "alpha", quality: 95)
        let info = try ImageDecoder.probe(path: path)
        #expect(info.hasAlpha)
        let ours = try decode(path).bitmap
        let reference = try EncodedFixture.reference(of: path)
        #expect(PixelDifference(ours, reference).max <= 2, "\(PixelDifference(ours, reference))")
        // What the PNG itself shows (composited over black by the PNG decoder).
        let source = try ImageDecoder.decode(bytes: Self.alphaPNG).bitmap
        #expect(PixelDifference(ours, source).mean < 5)
        // The fully transparent right edge is black; the opaque left edge is red.
        #expect(ours.color(x: 63, y: 40).red < 12)
        #expect(ours.color(x: 0, y: 40).red > 230)
        #expect(ours.pixel(x: 0, y: 0) >> 24 == 0xFF, "the X byte is left opaque, as PNG leaves it")
    }

    @Test(arguments: [EncodedFixture.Kind.heic, .avif, .webp])
    func greyImagesDecodeGrey(kind: EncodedFixture.Kind) throws {
        let width = 64, height = 32
        let samples = (0..<(width * height)).map { i in (i % width) * 4 }
        let png = PNGFixture(width: width, height: height, colorType: .gray, samples: samples).encode()
        let path = try EncodedFixture.write(png: png, as: kind, to: dir, name: "grey")
        let ours = try decode(path).bitmap
        #expect(ours.size == Size(width: 64, height: 32))
        for x in stride(from: 0, to: width, by: 7) {
            let c = ours.color(x: x, y: 16)
            #expect(abs(Int(c.red) - Int(c.green)) <= 3 && abs(Int(c.blue) - Int(c.green)) <= 3, "x \(x): \(c)")
            #expect(abs(Int(c.green) - x * 4) <= 8, "x \(x): \(c)")
        }
        if kind != .webp { #expect(PixelDifference(ours, try EncodedFixture.reference(of: path)).max <= 2) }
    }

    // MARK: Orientation

    @Test(arguments: 1...8)
    func heifTransformationsAreApplied(orientation: Int) throws {
        let display = Fixtures.gradient(width: 64, height: 32)
        let path = dir + "/irot-\(orientation).heic"
        try HEIFWriter(image: Fixtures.stored(for: display, orientation: orientation), orientation: orientation).write(to: path)
        let info = try ImageDecoder.probe(path: path)
        #expect(info.orientedSize == Size(width: 64, height: 32))
        #expect(info.orientation == .up, "libheif applies irot/imir; nothing is left to apply")
        let ours = try decode(path).bitmap
        #expect(ours.size == Size(width: 64, height: 32))
        #expect(PixelDifference(ours, display).mean < 4, "\(PixelDifference(ours, display))")
        #expect(PixelDifference(ours, try EncodedFixture.reference(of: path)).max <= 2)
        // Scaled too: the thumbnail path goes through the same transformations.
        let small = try decode(path, fitting: Size(width: 32, height: 32)).bitmap
        #expect(small.size == Size(width: 32, height: 16))
        #expect(small.color(x: 31, y: 8).red > 200 && small.color(x: 0, y: 8).red < 40)
    }

    @Test func webpExifOrientationIsApplied() throws {
        let display = Fixtures.gradient(width: 64, height: 32)
        let path = try EncodedFixture.write(Fixtures.stored(for: display, orientation: 6), as: .webpLossless, to: dir, name: "rot")
        let exif = dir + "/exif.tiff"
        try FileReader.write(TIFFBuilder(orientation: 6, dateTimeOriginal: "2021:07:04 10:20:30").build(), to: exif)
        let tagged = dir + "/rot-tagged.webp"
        try ExternalTool.run("webpmux", ["-set", "exif", exif, path, "-o", tagged])
        let info = try ImageDecoder.probe(path: tagged)
        #expect(info.orientation == .right)
        #expect(info.orientedSize == Size(width: 64, height: 32))
        #expect(info.exif?.dateTimeOriginal == "2021:07:04 10:20:30")
        #expect(PixelDifference(try decode(tagged).bitmap, display).max == 0)
        let small = try decode(tagged, fitting: Size(width: 32, height: 32))
        #expect(small.bitmap.size == Size(width: 32, height: 16))
        #expect(PixelDifference(small.bitmap, Resampler.resize(display, width: 32, height: 16)).mean < 4)
    }

    /// A WebP bigger than the probe's 256 KB prefix keeps its EXIF chunk at the end, after the
    /// image data: probing the file still finds the orientation (the album lays pages out from it).
    @Test func aLargeWebPsOrientationIsFoundBeyondTheProbePrefix() throws {
        var random = SeededRandom(seed: 17)
        let noise = Bitmap(width: 320, height: 480)
        for y in 0..<480 { for x in 0..<320 { noise.setPixel(x: x, y: y, UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000) } }
        let path = try EncodedFixture.write(noise, as: .webpLossless, to: dir, name: "big")
        try FileReader.write(TIFFBuilder(orientation: 6).build(), to: dir + "/exif6.tiff")
        let tagged = dir + "/big-tagged.webp"
        try ExternalTool.run("webpmux", ["-set", "exif", dir + "/exif6.tiff", path, "-o", tagged])
        #expect(try FileReader.read(path: tagged).count > ImageDecoder.probePrefixBytes)
        let info = try ImageDecoder.probe(path: tagged)
        #expect(info.orientation == .right)
        #expect(info.orientedSize == Size(width: 480, height: 320))
        // A truncated copy without its EXIF chunk still probes and decodes (unrotated, partial).
        let cut = Array(try FileReader.read(path: tagged).prefix(300_000))
        #expect(try ImageDecoder.probe(bytes: cut).orientation == .up)
        #expect(try ImageDecoder.decode(bytes: cut).isPartial)
    }

    /// A HEIC bigger than the probe's prefix: libheif checks every item's extent while it reads
    /// the boxes, so the prefix is refused as truncated and the whole file is probed: the
    /// date, stored in the EXIF item, is found.
    @Test func aLargeHEICIsProbedWholeAndItsDateFound() throws {
        var random = SeededRandom(seed: 23)
        let noise = Bitmap(width: 800, height: 600)
        for y in 0..<600 { for x in 0..<800 { noise.setPixel(x: x, y: y, UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000) } }
        var jpegOptions = JPEGEncoder.Options(quality: 98)
        jpegOptions.markers = [.exif(tiff: TIFFBuilder(dateTimeOriginal: "2019:12:31 23:59:58").build())]
        try FileReader.write(JPEGEncoder.encode(noise, options: jpegOptions), to: dir + "/noise.jpg")
        let path = dir + "/noise.heic"
        try ExternalTool.run("heif-enc", ["-q", "98", "-o", path, dir + "/noise.jpg"])
        let bytes = try FileReader.read(path: path)
        #expect(bytes.count > ImageDecoder.probePrefixBytes)
        #expect(try ImageDecoder.probe(path: path).exif?.dateTimeOriginal == "2019:12:31 23:59:58")
        let prefix = Array(bytes.prefix(ImageDecoder.probePrefixBytes))
        #expect(imagingError { () throws(ImagingError) in try ImageDecoder.probe(bytes: prefix) }?.kind == .truncated)
    }

    /// A HEIF whose EXIF says "rotate" but which has no irot: the EXIF tag is informative in
    /// HEIF, so the picture is shown as stored, as heif-convert shows it. Its date is read.
    @Test func heifExifOrientationIsNotAppliedTwiceButTheDateIsRead() throws {
        var jpegOptions = JPEGEncoder.Options(quality: 95)
        jpegOptions.markers = [.exif(tiff: TIFFBuilder(orientation: 6, dateTimeOriginal: "2023:01:02 03:04:05").build())]
        let source = dir + "/tagged.jpg"
        try FileReader.write(JPEGEncoder.encode(Self.scene, options: jpegOptions), to: source)
        let path = dir + "/tagged.heic"
        try ExternalTool.run("heif-enc", ["-q", "90", "-o", path, source])
        let info = try ImageDecoder.probe(path: path)
        #expect(info.exif?.dateTimeOriginal == "2023:01:02 03:04:05")
        #expect(info.orientedSize == Size(width: 128, height: 96))
        let ours = try decode(path).bitmap
        #expect(PixelDifference(ours, try EncodedFixture.reference(of: path)).max <= 2)
    }

    // MARK: Target size

    /// A phone-style HEIC: a red main image with a blue thumbnail item, so the test sees which
    /// one a decode used.
    func photoWithThumbnail(width: Int, height: Int, thumbnailBox: Int) throws -> String {
        let path = dir + "/thumbed-\(width)x\(height).heic"
        try HEIFWriter(image: Fixtures.solid(width: width, height: height, .red),
                       thumbnail: Fixtures.solid(width: width, height: height, .blue), thumbnailBox: thumbnailBox).write(to: path)
        return path
    }

    func isBlue(_ b: Bitmap) -> Bool { let c = b.color(x: b.width / 2, y: b.height / 2); return c.blue > 200 && c.red < 60 }

    @Test func smallTargetsUseTheEmbeddedThumbnail() throws {
        let path = try photoWithThumbnail(width: 640, height: 480, thumbnailBox: 160)
        let grid = try decode(path, fitting: Size(width: 100, height: 100))
        #expect(isBlue(grid.bitmap))
        #expect(grid.bitmap.size == Size(width: 100, height: 75))
        #expect(grid.originalSize == Size(width: 640, height: 480))
        // The loader's grid thumbnail covers 120x120: 160x120 still does.
        let cell = try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath(path), size: .thumbnail(edge: 120)))).bitmap
        #expect(isBlue(cell) && cell.size == Size(width: 160, height: 120))
        // Bigger than the thumbnail: the main image.
        let screen = try decode(path, fitting: Size(width: 320, height: 320))
        #expect(!isBlue(screen.bitmap) && screen.bitmap.size == Size(width: 320, height: 240))
        #expect(!isBlue(try decode(path).bitmap))
    }

    @Test func aThumbnailTooSmallOrOfAnotherShapeIsNotUsed() throws {
        let small = try photoWithThumbnail(width: 640, height: 480, thumbnailBox: 64)
        #expect(!isBlue(try decode(small, fitting: Size(width: 100, height: 100)).bitmap))
        // A square thumbnail of a 4:3 photo covers the target but would be cropped or stretched.
        let path = dir + "/square-thumb.heic"
        try HEIFWriter(image: Fixtures.solid(width: 640, height: 480, .red), thumbnail: Fixtures.solid(width: 400, height: 400, .blue),
                       thumbnailBox: 200).write(to: path)
        #expect(!isBlue(try decode(path, fitting: Size(width: 100, height: 100)).bitmap))
    }

    @Test(arguments: [EncodedFixture.Kind.heic, .avif, .webp])
    func exactSizeForTheScreen(kind: EncodedFixture.Kind) throws {
        let path = try EncodedFixture.write(Fixtures.scene(width: 400, height: 300), as: kind, to: dir, name: "screen")
        let screen = try decode(path, fitting: Size(width: 160, height: 90))
        #expect(screen.bitmap.size == Size(width: 120, height: 90))
        let reference = Resampler.resize(try ImageDecoder.decode(path: path).bitmap, width: 120, height: 90)
        #expect(PixelDifference(screen.bitmap, reference).mean < 4)
        // Never upscaled unless asked.
        #expect(try decode(path, fitting: Size(width: 4000, height: 4000)).bitmap.size == Size(width: 400, height: 300))
    }

    // MARK: Tiles

    /// `photokiosk tiles` on a HEIC: rows come from libheif's buffer a band at a time, oriented,
    /// and the full level's tiles are exactly the whole decode.
    @Test func heifPyramidIsTheOrientedDecodeBandByBand() throws {
        let display = Fixtures.scene(width: 300, height: 200)
        let path = dir + "/pyramid.heic"
        try HEIFWriter(image: Fixtures.stored(for: display, orientation: 6), orientation: 6).write(to: path)
        let whole = try decode(path).bitmap
        let descriptor = try PyramidBuilder.build(imageAt: path, directory: dir, name: "p", options: .init(tileSize: 128, format: .png))
        #expect(descriptor.layout.width == 300 && descriptor.layout.height == 200)
        let tiles = try DeepZoomTileSource(descriptorPath: dir + "/p.dzi")
        let level = descriptor.layout.maxLevel
        for (column, row) in [(0, 0), (2, 1)] {
            let tile = try tiles.tile(level: level, column: column, row: row)
            let expected = Bitmap(width: tile.width, height: tile.height)
            Canvas(target: expected).draw(whole, from: Rect(x: column * 128, y: row * 128, width: tile.width, height: tile.height),
                                          in: Rect(x: 0, y: 0, width: tile.width, height: tile.height))
            #expect(PixelDifference(tile, expected).max == 0, "tile \(column)_\(row)")
        }
        #expect(PixelDifference(whole, display).mean < 6)
        // Over the limit: refused before libheif decodes.
        let error = imagingError { () throws(ImagingError) in try HEIFDecoder.rows(path: path, options: DecodeOptions(maxPixels: 1000)) }
        #expect(error?.kind == .tooLarge)
    }

    // MARK: Limits and cancellation

    @Test(arguments: [EncodedFixture.Kind.heic, .avif, .webp])
    func pixelLimitIsCheckedFromTheHeader(kind: EncodedFixture.Kind) throws {
        let path = try EncodedFixture.write(Self.scene, as: kind, to: dir, name: "limit")
        let error = imagingError { () throws(ImagingError) in try decode(path, options: DecodeOptions(maxPixels: 128 * 96 - 1)) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message.contains("128x96") == true, "\(String(describing: error))")
        #expect(imagingError { () throws(ImagingError) in try decode(path, options: DecodeOptions(maxPixels: 128 * 96)) } == nil)
    }

    @Test(arguments: [EncodedFixture.Kind.heic, .webp])
    func cancelledDecodesStop(kind: EncodedFixture.Kind) throws {
        let path = try EncodedFixture.write(Self.scene, as: kind, to: dir, name: "cancel")
        let cancellation = DecodeCancellation()
        cancellation.cancel()
        let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(path: path, cancellation: cancellation) }
        #expect(error?.kind == .cancelled)
    }
}
