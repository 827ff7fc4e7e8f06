import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif
import Graphics

/// The tile files' format.
public enum TileFileFormat: String, Sendable, CaseIterable {
    case jpeg, png

    /// The extension Deep Zoom's Format attribute names.
    public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
}

/// Builds every level of a Deep Zoom pyramid from rows that arrive top to bottom, in one pass
/// and bounded memory: each level keeps one band of `tileSize` rows; when a band is full its
/// tiles are written and it is halved into the next level's band. For a 20000-pixel-wide image
/// that is about 2 x 20000 x 256 x 4 bytes (40 MB) whatever the height.
///
/// Writes `NAME_files/LEVEL/COLUMN_ROW.EXT` first and `NAME.dzi` last, so a descriptor on disk
/// always means a complete pyramid. Overlap is 0 (readers handle other overlaps).
public final class PyramidBuilder {
    public struct Options: Sendable {
        public var tileSize: Int
        public var format: TileFileFormat
        public var jpegQuality: Int

        public init(tileSize: Int = 256, format: TileFileFormat = .jpeg, jpegQuality: Int = 85) {
            self.tileSize = tileSize
            self.format = format
            self.jpegQuality = jpegQuality
        }
    }

    /// Rows of the full level done so far and in all; called after each band.
    public typealias Progress = (_ rowsDone: Int, _ totalRows: Int) -> Void

    private final class Level {
        let index: Int
        let width: Int
        let height: Int
        let band: Bitmap
        var filled = 0
        var received = 0
        var bandRow = 0
        let directory: String

        init(index: Int, width: Int, height: Int, tileSize: Int, directory: String) {
            self.index = index
            self.width = width
            self.height = height
            self.directory = directory
            band = Bitmap(width: width, height: tileSize)
        }
    }

    public let descriptor: DeepZoomDescriptor
    private let options: Options
    private let descriptorPath: String
    private var levels: [Level] = []
    private var scratch: [Bitmap] = []
    public private(set) var tilesWritten = 0

    /// Prepares `directory/NAME.dzi` and `directory/NAME_files/` for an image of `width` x `height`.
    public init(width: Int, height: Int, directory: String, name: String, options: Options = Options()) throws(ImagingError) {
        guard width > 0, height > 0, options.tileSize >= 16, options.tileSize % 2 == 0 else {
            throw ImagingError(.internalFailure, "cannot tile a \(width)x\(height) image in \(options.tileSize)-pixel tiles")
        }
        self.options = options
        let layout = DeepZoomLayout(width: width, height: height, tileSize: options.tileSize, overlap: 0)
        descriptor = DeepZoomDescriptor(layout: layout, format: options.format.fileExtension)
        descriptorPath = directory + "/" + name + ".dzi"
        let files = directory + "/" + name + "_files"
        try Self.makeDirectory(directory)
        try Self.makeDirectory(files)
        for level in stride(from: layout.maxLevel, through: 0, by: -1) {
            let size = layout.levelSize(level)
            let dir = files + "/\(level)"
            try Self.makeDirectory(dir)
            levels.append(Level(index: level, width: size.width, height: size.height, tileSize: options.tileSize, directory: dir))
            scratch.append(Bitmap(width: (size.width + 1) / 2, height: options.tileSize / 2))
        }
    }

    /// Reads every row of `source` and writes the whole pyramid.
    public static func build(from source: inout some RowSource, directory: String, name: String,
                             options: Options = Options(), progress: Progress? = nil) throws(ImagingError) -> DeepZoomDescriptor {
        let builder = try PyramidBuilder(width: source.width, height: source.height, directory: directory, name: name, options: options)
        var done = 0
        while done < source.height {
            let rows = try builder.readTopLevelRows(from: &source)
            guard rows > 0 else { break }
            done += rows
            progress?(done, source.height)
        }
        guard done == source.height else {
            throw ImagingError(.truncated, "the image ended after \(done) of \(source.height) rows")
        }
        try builder.finish()
        return builder.descriptor
    }

    /// Builds from the image file at a text path (the `tiles` command's argument).
    public static func build(imageAt path: String, directory: String, name: String, options: Options = Options(),
                             decodeOptions: DecodeOptions = .default, memoryGate: DecodeMemoryGate = .shared,
                             progress: Progress? = nil) throws(ImagingError) -> DeepZoomDescriptor {
        try build(imageAt: RawPath(path), directory: directory, name: name, options: options,
                  decodeOptions: decodeOptions, memoryGate: memoryGate, progress: progress)
    }

    /// Builds from an image file: JPEGs stored upright are read in bands; other images
    /// (PNG, EXIF-rotated or CMYK JPEG) are decoded whole first, within `decodeOptions`' limits.
    ///
    /// A band read holds its working memory (a band per level, a progressive file's packed
    /// coefficients) under `memoryGate` as a background reservation: it starts when no decode the
    /// screen needs is waiting, and later ones wait while both would not fit the budget.
    public static func build(imageAt path: RawPath, directory: String, name: String, options: Options = Options(),
                             decodeOptions: DecodeOptions = .default, memoryGate: DecodeMemoryGate = .shared,
                             progress: Progress? = nil) throws(ImagingError) -> DeepZoomDescriptor {
        let info = try ImageDecoder.probe(path: path, options: decodeOptions)
        if info.format == .jpeg, info.orientation == .up, info.colorSpace == .rgb || info.colorSpace == .grayscale {
            var reader = try JPEGBandReader(path: path, options: decodeOptions)
            let working = reader.coefficientBytes + bandBytes(width: reader.width, tileSize: options.tileSize)
            return try memoryGate.withReservation(working, background: true) { () throws(ImagingError) in
                try build(from: &reader, directory: directory, name: name, options: options, progress: progress)
            }
        }
        if info.format == .heif || info.format == .avif {  // whole in libheif, but no second full-size copy
            var rows = try HEIFDecoder.rows(path: path, options: decodeOptions)
            return try build(from: &rows, directory: directory, name: name, options: options, progress: progress)
        }
        var rows = BitmapRowSource(try ImageDecoder.decode(path: path, options: decodeOptions).bitmap)
        return try build(from: &rows, directory: directory, name: name, options: options, progress: progress)
    }

    /// The bands every level keeps, plus the halving scratch: about twice the full level's band.
    static func bandBytes(width: Int, tileSize: Int) -> Int { width * tileSize * 4 * 5 / 2 }

    /// Adds the next `rows` rows (of the full level) from the top of `bitmap`.
    public func append(_ bitmap: Bitmap, rows: Int) throws(ImagingError) {
        try append(bitmap, rows: rows, toLevel: 0)
    }

    /// Reads the next rows straight into the full level's band (no second full-width buffer).
    private func readTopLevelRows(from source: inout some RowSource) throws(ImagingError) -> Int {
        let level = levels[0]
        let free = Bitmap(wrapping: level.band.row(level.filled), width: level.width,
                          height: min(options.tileSize - level.filled, level.height - level.received), stride: level.band.stride)
        guard free.height > 0 else { return 0 }
        let rows = try source.readRows(into: free)
        level.filled += rows
        level.received += rows
        if rows > 0, level.filled == options.tileSize || level.received == level.height { try flush(0) }
        return rows
    }

    /// Writes what is left and the descriptor.
    public func finish() throws(ImagingError) {
        for (i, level) in levels.enumerated() where level.received < level.height {
            throw ImagingError(.internalFailure, "level \(level.index) got \(level.received) of \(level.height) rows (\(i))")
        }
        try FileReader.write(Array(descriptor.xml.utf8), to: descriptorPath)
    }

    private func append(_ source: Bitmap, rows: Int, toLevel i: Int) throws(ImagingError) {
        let level = levels[i]
        var next = 0
        while next < rows {
            let n = min(options.tileSize - level.filled, rows - next, level.height - level.received)
            guard n > 0 else { return }
            for r in 0..<n {
                level.band.row(level.filled + r).copyMemory(from: source.row(next + r), byteCount: level.width * 4)
            }
            level.filled += n
            level.received += n
            next += n
            if level.filled == options.tileSize || level.received == level.height { try flush(i) }
        }
    }

    /// Writes the band's tiles and passes it on, halved, to the next level.
    private func flush(_ i: Int) throws(ImagingError) {
        let level = levels[i]
        let t = options.tileSize
        var column = 0
        while column * t < level.width {
            let x = column * t
            let tile = Bitmap(wrapping: level.band.pixels + x * 4, width: min(t, level.width - x), height: level.filled,
                              stride: level.band.stride)
            try write(tile, to: level.directory + "/\(column)_\(level.bandRow).\(options.format.fileExtension)")
            column += 1
        }
        if i + 1 < levels.count {
            HalfScaler.halve(level.band, width: level.width, rows: level.filled, into: scratch[i])
            try append(scratch[i], rows: (level.filled + 1) / 2, toLevel: i + 1)
        }
        level.filled = 0
        level.bandRow += 1
    }

    private func write(_ tile: Bitmap, to path: String) throws(ImagingError) {
        let bytes: [UInt8]
        switch options.format {
        case .jpeg: bytes = try JPEGEncoder.encode(tile, quality: options.jpegQuality)
        case .png: bytes = try PNGEncoder.encode(tile, compression: 3)
        }
        try FileReader.write(bytes, to: path)
        tilesWritten += 1
    }

    static func makeDirectory(_ path: String) throws(ImagingError) {
        do {
            try FileSystemCalls.makeDirectory(FilePath(path), permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        } catch where error.errno != .fileExists {
            throw FileReader.error(error)
        } catch {}
    }
}
