import Basics
import Graphics
import Imaging
import SystemAccess
import SystemPackage

/// The photos the benchmarks decode and the large libraries they open.
///
/// Real photos come from the shared folder when present; otherwise a generated corpus (camera-
/// sized JPEGs written with the project's JPEGEncoder) is cached under the work folder. Large
/// libraries are copies of those photos (see `library`), cached too.
struct Corpus {
    let photos: [String]
    let isGenerated: Bool

    static func load(from folder: String?, work: String) throws -> Corpus {
        if let folder, let photos = jpegs(in: folder), !photos.isEmpty {
            return Corpus(photos: photos, isGenerated: false)
        }
        return Corpus(photos: try generated(in: work + "/generated"), isGenerated: true)
    }

    static func jpegs(in folder: String) -> [String]? {
        guard let entries = entryNames(inDirectory: folder) else { return nil }
        let names = entries.map { String(decoding: $0, as: UTF8.self) }.filter {
            let lower = $0.lowercased()
            return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
        }
        return names.sorted().map { folder + "/" + $0 }
    }

    /// 12 JPEGs at sizes cameras and wallpapers have, with smooth gradients and sharp detail so
    /// the entropy coder has realistic work.
    static func generated(in folder: String) throws -> [String] {
        let sizes = [(4000, 3000), (2560, 1600), (3840, 2160), (3000, 4000)]
        var paths: [String] = []
        try makeDirectories(folder)
        for i in 0..<12 {
            let (w, h) = sizes[i % sizes.count]
            let path = folder + "/generated-\(i < 10 ? "0" : "")\(i)-\(w)x\(h).jpg"
            paths.append(path)
            if FileSystemCalls.exists(FilePath(path)) { continue }
            let bitmap = Bitmap(width: w, height: h)
            var random = SeededRandom(seed: UInt64(i))
            for y in 0..<h {
                let row = bitmap.row(y).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w {
                    let noise = UInt32(truncatingIfNeeded: random.next() >> 59)
                    let r = UInt32((x * 255) / w) ^ ((x / 64 + y / 64 + i) % 2 == 0 ? 0 : 0x30)
                    let g = UInt32((y * 255) / h)
                    let b = UInt32(((x + y) * 255) / (w + h)) &+ noise
                    row[x] = (min(r, 255) << 16) | (min(g, 255) << 8) | min(b, 255)
                }
            }
            try FileReader.write(try JPEGEncoder.encode(bitmap, options: .init(quality: 88)), to: path)
        }
        return paths
    }

    /// A folder of `count` photos, reused when already complete.
    ///
    /// The library scanner lists a file once per inode (links never show a photo twice), so
    /// hard links cannot make a large library: each photo is its own file. The first
    /// `fullCopies` are byte copies of the corpus (what the first screens and the flings decode);
    /// the rest are copies of the corpus photos re-encoded at 640x400, to keep 10,000 files
    /// under a gigabyte.
    func library(count: Int, in work: String, fullCopies: Int = 600) throws -> String {
        let folder = work + "/library-\(count)\(isGenerated ? "-generated" : "")"
        let marker = folder + "/.complete"
        if FileSystemCalls.exists(FilePath(marker)) { return folder }
        removeTree(folder)
        try makeDirectories(folder)
        let originals = try photos.map { try FileReader.read(path: $0) }
        var small: [[UInt8]] = []
        if count > fullCopies {
            small = try photos.map { path in
                let bitmap = try ImageDecoder.decode(path: path, fitting: Size(width: 640, height: 400)).bitmap
                return try JPEGEncoder.encode(bitmap, options: .init(quality: 88))
            }
        }
        let digits = String(count - 1).count
        for i in 0..<count {
            var number = String(i)
            while number.count < digits { number = "0" + number }
            let bytes = i < fullCopies ? originals[i % originals.count] : small[i % small.count]
            try FileReader.write(bytes, to: folder + "/photo-\(number).jpg")
        }
        try FileReader.write([], to: marker)
        return folder
    }
}
