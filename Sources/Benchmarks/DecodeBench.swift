import Graphics
import Imaging
import SystemAccess
import SystemPackage

/// (a) and (g): per-image decode cost of the app's decoder at thumbnail and screen size, next to
/// libjpeg-turbo's own `djpeg` at the same DCT scale and ImageMagick's `convert` on the same
/// files. Child tools are charged their CPU time (wait4) minus their start-up cost (the same
/// tool on an 8x8 JPEG), so exec and dynamic linking are not counted against them.
struct DecodeBench {
    let photos: [String]
    let repetitions: Int
    let work: String
    var thumbnailEdge = 256
    var screen = (width: 1920, height: 1080)

    struct Result {
        var ours = Samples()        // per-image median CPU seconds
        var djpeg = Samples()
        var convert = Samples()
        var ratioDjpeg = Samples()  // per-image ours / djpeg
        var ratioConvert = Samples()
    }

    func run(_ size: SizeClass, convertArguments: [String]?) throws -> Result {
        let decoder = PhotoFileDecoder()
        let tiny = try tinyJPEG()
        let djpegStartup = which("djpeg") == nil ? nil : childCPU(["djpeg", "-outfile", "/dev/null", tiny], runs: 5)
        let convertStartup = convertArguments.map { args in
            childCPU(["convert", tiny] + args + ["ppm:/dev/null"], runs: 3)
        }
        var result = Result()
        for path in photos {
            let request = ImageRequest(key: ImageKey(path: RawPath(path), size: size))
            _ = try decoder.decode(request)  // page cache and code warm
            let ours = try cpuTimes(repetitions) { _ = try decoder.decode(request) }.median
            result.ours.add(ours)
            if let djpegStartup, let scale = try djpegScale(path, size) {
                let t = max(childCPU(["djpeg", "-scale", "\(scale)/8", "-outfile", "/dev/null", path], runs: repetitions) - djpegStartup, 1e-6)
                result.djpeg.add(t)
                result.ratioDjpeg.add(ours / t)
            }
            if let convertArguments, let convertStartup {
                let t = max(childCPU(["convert", path] + convertArguments + ["ppm:/dev/null"], runs: max(1, repetitions / 2)) - convertStartup, 1e-6)
                result.convert.add(t)
                result.ratioConvert.add(ours / t)
            }
        }
        return result
    }

    /// The DCT scale (eighths) the app's decoder picks for this file and size class, so djpeg
    /// does the same amount of IDCT work.
    func djpegScale(_ path: String, _ size: SizeClass) throws -> Int? {
        let info = try ImageDecoder.probe(path: path)
        let box: Size
        switch size {
        case .thumbnail(let edge): box = PhotoFileDecoder.thumbnailBox(for: info.orientedSize, edge: edge)
        case .screen(let w, let h): box = Size(width: w, height: h)
        case .full: return 8
        }
        let fitted = ImageDecoder.fittedSize(of: info.orientedSize, in: box)
        let target = info.orientation.swapsDimensions ? (fitted.height, fitted.width) : (fitted.width, fitted.height)
        return DCTScale.covering(width: info.pixelWidth, height: info.pixelHeight,
                                 target: target, usesEighths: DecodeOptions.default.usesEighthScales).eighths
    }

    /// Median CPU seconds of `runs` runs of a child process.
    func childCPU(_ arguments: [String], runs: Int) -> Double {
        var samples = Samples()
        for _ in 0..<runs {
            if let r = spawn(arguments) { samples.add(r.cpuSeconds) }
        }
        return samples.median
    }

    func tinyJPEG() throws -> String {
        let path = work + "/tiny-8x8.jpg"
        if !FileSystemCalls.exists(FilePath(path)) {
            try FileReader.write(try JPEGEncoder.encode(Bitmap(width: 8, height: 8), options: .init()), to: path)
        }
        return path
    }
}
