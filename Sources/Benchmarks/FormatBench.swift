import Graphics
import Imaging
import SystemAccess
import SystemPackage

/// Issue 17 (5): the app's decoder on HEIC, AVIF and WebP at thumbnail and screen size, next to
/// the reference tools on the same files in the same run: `heif-convert` to .y4m (decode and
/// transformations only: no RGB conversion, no compression of the output) and `dwebp -scale` to
/// the same size with no output file. Process CPU on our side, since libheif's HEVC and AV1
/// decoders run worker threads; the tools are charged their child CPU minus their start-up.
struct FormatBench {
    let photos: [String]
    let repetitions: Int
    let work: String

    enum Kind: String, CaseIterable {
        case heic = "HEIC", avif = "AVIF", webp = "WebP"
        var fileExtension: String { rawValue.lowercased() }
    }

    struct Result {
        var ours = Samples()
        var tool = Samples()
        var ratio = Samples()  // per file: ours / tool
    }

    /// The corpus's first `count` photos (up to 4032x3024, a phone's 12 MP) in each format,
    /// made once with the real encoders and cached under `work`: HEICs with a 320 px thumbnail
    /// item as phones write them, AVIFs without (as most exporters write them).
    func files(_ kind: Kind, count: Int = 4) throws -> [String] {
        let folder = work + "/formats"
        try makeDirectories(folder)
        var paths: [String] = []
        for (i, photo) in photos.prefix(count).enumerated() {
            let path = "\(folder)/photo-\(i).\(kind.fileExtension)"
            paths.append(path)
            if FileSystemCalls.exists(FilePath(path)) { continue }
            let png = "\(folder)/photo-\(i).png"
            if !FileSystemCalls.exists(FilePath(png)) {
                let bitmap = try ImageDecoder.decode(path: photo, fitting: Size(width: 4032, height: 3024)).bitmap
                try PNGEncoder.write(bitmap, to: png, compression: 1)
            }
            try encode(kind, png, to: path, thumbnailItem: true)
        }
        return paths
    }

    /// `thumbnailItem`: a HEIC gets a 320 px thumbnail image (heif-enc refuses one bigger than the photo).
    func encode(_ kind: Kind, _ png: String, to path: String, thumbnailItem: Bool) throws {
        let arguments: [String]
        switch kind {
        case .heic: arguments = ["heif-enc", "-q", "80"] + (thumbnailItem ? ["-t", "320"] : []) + ["-p", "preset=fast", "-o", path, png]
        case .avif: arguments = ["heif-enc", "-A", "-q", "70", "-p", "speed=8", "-o", path, png]
        case .webp: arguments = ["cwebp", "-quiet", "-q", "80", png, "-o", path]
        }
        guard spawn(arguments)?.succeeded == true else { throw ImagingError(.io, "\(arguments[0]) could not encode \(png)") }
    }

    func run(_ kind: Kind, _ size: SizeClass, files: [String]) throws -> Result {
        let decoder = PhotoFileDecoder()
        let tools = DecodeBench(photos: [], repetitions: repetitions, work: work)
        let tiny = files[0] + ".tiny." + kind.fileExtension
        if !FileSystemCalls.exists(FilePath(tiny)) {
            let png = work + "/formats/tiny.png"
            try PNGEncoder.write(Bitmap(width: 8, height: 8), to: png)
            try encode(kind, png, to: tiny, thumbnailItem: false)
        }
        let startup = tools.childCPU(toolArguments(kind, tiny, nil), runs: 5)
        var result = Result()
        for path in files {
            let request = ImageRequest(key: ImageKey(path: RawPath(path), size: size))
            _ = try decoder.decode(request)  // page cache and code warm
            var ours = Samples()
            for _ in 0..<repetitions {
                let start = ResourceUsage.current().cpuSeconds
                _ = try decoder.decode(request)
                ours.add(ResourceUsage.current().cpuSeconds - start)
            }
            result.ours.add(ours.median)
            let target = try targetSize(path, size)
            let tool = max(tools.childCPU(toolArguments(kind, path, target), runs: repetitions) - startup, 1e-6)
            result.tool.add(tool)
            result.ratio.add(ours.median / tool)
        }
        return result
    }

    /// What the app's decoder produces for this file and size class (dwebp scales to it).
    func targetSize(_ path: String, _ size: SizeClass) throws -> (width: Int, height: Int) {
        let info = try ImageDecoder.probe(path: path)
        switch size {
        case .thumbnail(let edge): return ImageDecoder.fittedSize(of: info.orientedSize, in: PhotoFileDecoder.thumbnailBox(for: info.orientedSize, edge: edge))
        case .screen(let w, let h): return ImageDecoder.fittedSize(of: info.orientedSize, in: Size(width: w, height: h))
        case .full: return (info.pixelWidth, info.pixelHeight)
        }
    }

    func toolArguments(_ kind: Kind, _ path: String, _ target: (width: Int, height: Int)?) -> [String] {
        switch kind {
        case .heic, .avif: return ["heif-convert", path, work + "/formats/out.y4m"]
        case .webp: return ["dwebp", path] + (target.map { ["-scale", "\($0.width)", "\($0.height)"] } ?? [])
        }
    }
}
