import ArgumentParser
import Graphics
import Imaging

struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a photo, EXIF-oriented and scaled to fit N x N, as PNG.")

    @Argument(help: "A JPEG, PNG, HEIF/HEIC, AVIF or WebP photo.") var image: String
    @Option(parsing: .unconditional, help: "The box the photo is fitted into, in pixels.", transform: ArgumentValues.wholeNumber) var size: Int
    @Option(help: "Output PNG.") var out: String
    @Option(help: "Refuse images with more pixels than this (decompression bombs).") var maxPixels = 100_000_000

    func validate() throws {
        guard size > 0 else { throw ValidationError("--size must be a positive number of pixels, not \(size)") }
    }

    func run() throws {
        try OutputPath.checkFolder(of: out, option: "--out")
        do {
            let decoded = try ImageDecoder.decode(path: image, fitting: Size(width: size, height: size),
                                                  options: DecodeOptions(maxPixels: maxPixels))
            try PNGEncoder.write(decoded.bitmap, to: out)
            // JPEG fills what is missing with grey, PNG and WebP with black: say what happened.
            let partial = decoded.isPartial ? " (damaged or truncated: \(decoded.warning ?? "some data is missing"))" : ""
            print("\(out): \(decoded.bitmap.width)x\(decoded.bitmap.height) from \(Int(decoded.originalSize.width))x\(Int(decoded.originalSize.height))\(partial)")
        } catch {
            // One clear line, no usage text: the arguments were fine, the file was not.
            printError("photokiosk thumbnail: \(error)")
            throw ExitCode(65)
        }
    }
}
