import Basics
import ArgumentParser
import Glibc
import Graphics
import Imaging
import SystemAccess
import SystemPackage

extension TileFileFormat: ExpressibleByArgument {}

struct Tiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a Deep Zoom pyramid (NAME.dzi + NAME_files/LEVEL/COL_ROW.jpg) of a huge photo.",
        discussion: """
        Upright JPEGs are decoded a band of rows at a time and every level is built in the same \
        pass, so memory stays near 2 x width x tile-size x 4 bytes even for 20000 x 20000 pixels. \
        The result opens in OpenSeadragon and in the kiosk's tiled view.
        """)

    @Argument(help: "A JPEG, PNG, HEIF/HEIC, AVIF or WebP photo.") var image: String
    @Option(help: "Output folder (created).") var out: String = "."
    @Option(help: "Pyramid name (default: the photo's file name without extension).") var name: String?
    @Option(parsing: .unconditional, help: "Tile edge in pixels (default: 256).", transform: ArgumentValues.wholeNumber) var tileSize: Int = 256
    @Option(help: "jpeg or png.") var format: TileFileFormat = .jpeg
    @Option(parsing: .unconditional, help: "JPEG quality 1-100 (default: 85).", transform: ArgumentValues.wholeNumber) var quality: Int = 85
    @Option(help: "Refuse images with more pixels than this.") var maxPixels = 1_000_000_000

    func validate() throws {
        guard tileSize >= 16, tileSize % 2 == 0 else { throw ValidationError("--tile-size \(tileSize): must be even and at least 16 pixels") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality \(quality): must be 1 to 100") }
    }

    func run() throws {
        let base = name ?? Self.stem(of: image)
        let bar = isatty(1) != 0 ? ProgressBar() : nil
        let start = MonotonicSeconds.now
        do {
            let descriptor = try PyramidBuilder.build(
                imageAt: image, directory: out, name: base,
                options: .init(tileSize: tileSize, format: format, jpegQuality: quality),
                decodeOptions: DecodeOptions(maxPixels: maxPixels, maxFileBytes: 4 << 30),
                progress: bar.map { bar in { done, total in bar.show(done, of: total) } })
            bar?.finish()
            let layout = descriptor.layout
            let seconds = MonotonicSeconds.now - start
            print("\(out)/\(base).dzi: \(layout.width)x\(layout.height), \(layout.maxLevel + 1) levels, "
                  + "\(layout.totalTileCount) tiles of \(layout.tileSize) px in \(decimalText(seconds, places: 1)) s")
        } catch {
            bar?.finish()
            printError("photokiosk tiles: \(error)")
            throw ExitCode(65)
        }
    }

    static func stem(of path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}

/// A one-line progress bar on a terminal, redrawn only when the shown percentage changes.
final class ProgressBar {
    private var shown = -1

    func show(_ done: Int, of total: Int) {
        let percent = total > 0 ? done * 100 / total : 100
        guard percent != shown else { return }
        shown = percent
        let width = 40, filled = percent * width / 100
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(percent)%"
        Self.write(line)
    }

    func finish() {
        guard shown >= 0 else { return }
        Self.write("\r" + String(repeating: " ", count: 50) + "\r")
    }

    private static func write(_ text: String) {
        try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
    }
}

enum MonotonicSeconds {
    static var now: Double { SystemClock.monotonicSeconds() }
}
