import Glibc
import Graphics
import Imaging
import SystemAccess
import SystemPackage

// photokiosk-bench: the figures of BENCHMARKS.md. `make bench` runs
//   photokiosk-bench run [--corpus DIR] [--work DIR] [--reps N] [--markdown FILE] [--histogram FILE]
// and the app measurements re-run this program as `photokiosk-bench child ...`.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "child" {
        try runChild(Array(arguments.dropFirst()))
    } else if arguments.first == "grid" {
        // Only the grid-scroll frames: for profiling (`perf record`) and quick before/after.
        let corpus = try Corpus.load(from: arguments.count > 1 ? arguments[1] : nil, work: ".build/bench")
        let frames = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
        let samples = try FrameBench().gridScroll(frames: frames) { edge in
            try corpus.photos.prefix(24).map { try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath($0), size: .thumbnail(edge: edge)))).bitmap }
        }
        say("grid scroll: median \(ms(samples.median)) ms, p10 \(ms(samples.percentile(10))) ms, p90 \(ms(samples.percentile(90))) ms over \(frames) frames")
    } else if arguments.first == "frames" {
        // Only section (b), the frame rows beside their memcpy floor (quick before/after).
        let corpus = try Corpus.load(from: arguments.count > 1 ? arguments[1] : nil, work: ".build/bench")
        var options = BenchOptions()
        if arguments.count > 2, let reps = Int(arguments[2]) { options.repetitions = max(1, reps) }
        try makeDirectories(options.work)
        var table = Table()
        _ = try BenchRun(options: options).frameSection(corpus, &table)
        say("\n" + table.plainText)
    } else if arguments.first == "kenburns" {
        // Only the slideshow's Ken Burns row beside its memcpy floor (quick before/after).
        let corpus = try Corpus.load(from: arguments.count > 1 ? arguments[1] : nil, work: ".build/bench")
        var options = BenchOptions()
        if arguments.count > 2, let reps = Int(arguments[2]) { options.repetitions = max(1, reps) }
        let frames = FrameBench()
        let floor = frames.memcpyFloor(runs: 50 * options.repetitions)
        var table = Table()
        table.section("(b) full-screen frame render at 1920x1080 (thread CPU per frame), ratio to one memcpy of a frame")
        table.add(Row(figure: "memcpy of one 1920x1080 XRGB frame (floor)", median: ms(floor.median) + " ms",
                      spread: ms(floor.spread.low) + "–" + ms(floor.spread.high) + " ms"))
        let photo = try corpus.photos.first.map {
            try PhotoFileDecoder().decode(ImageRequest(key: ImageKey(path: RawPath($0), size: .screen(width: 2208, height: 1242)))).bitmap
        }
        BenchRun(options: options).kenBurnsRow(frames, photo: photo, floor: floor.median, &table)
        say(table.plainText)
    } else if arguments.first == "first-frame" {
        // Only section (c), time to the first frame (quick before/after of start-up changes).
        let corpus = try Corpus.load(from: arguments.count > 1 ? arguments[1] : nil, work: ".build/bench")
        var options = BenchOptions()
        options.repetitions = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 3) : 3
        var table = Table()
        try BenchRun(options: options).firstFrameSection(corpus, &table)
        say(table.plainText)
    } else if arguments.first == "formats" {
        // Only the HEIC/AVIF/WebP rows (issue 17), printed as they come.
        let corpus = try Corpus.load(from: arguments.count > 1 ? arguments[1] : nil, work: ".build/bench")
        var table = Table()
        try BenchRun(options: BenchOptions()).formatSection(corpus, &table)
    } else if arguments.first == "clip" {
        // Only section (i), a 1080p clip playing against gst-launch's fakesink.
        var options = BenchOptions()
        if arguments.count > 1, let reps = Int(arguments[1]) { options.repetitions = max(1, reps) }
        try makeDirectories(options.work)
        var table = Table()
        BenchRun(options: options).clipSection(&table)
        say(table.plainText)
    } else if arguments.first == "places" {
        // Only the overlay's place lookup: open, lookup time, mapped memory.
        try PlaceBench.command(Array(arguments.dropFirst()))
    } else if arguments.first == "decode" {
        // Only the app's decoder over the corpus (quick before/after of decode changes).
        let corpus = try Corpus.load(from: arguments.count > 1 ? arguments[1] : nil, work: ".build/bench")
        let eighths = arguments.contains("--eighths")
        let decoder = PhotoFileDecoder(options: DecodeOptions(usesEighthScales: eighths))
        for size in [SizeClass.thumbnail(edge: 256), .screen(width: 1920, height: 1080)] {
            var total = Samples()
            for path in corpus.photos {
                let request = ImageRequest(key: ImageKey(path: RawPath(path), size: size))
                total.add(try cpuTimes(5) { _ = try decoder.decode(request) }.median)
            }
            say("decode \(size)\(eighths ? " (M/8 scales)" : ""): mean \(ms(total.sum / Double(total.count))) ms, median \(ms(total.median)) ms per image (per-image medians of 5)")
        }
    } else {
        var options = BenchOptions()
        var i = arguments.first == "run" ? 1 : 0
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch arguments[i] {
            case "--corpus": options.corpus = value
            case "--work": options.work = value
            case "--reps": options.repetitions = max(1, Int(value) ?? 3)
            case "--markdown": options.markdown = value
            case "--histogram": options.histogram = value
            default:
                let usage = """
                    usage: photokiosk-bench [run] [--corpus DIR] [--work DIR] [--reps N] [--markdown FILE] [--histogram FILE]
                           photokiosk-bench grid [PHOTO-DIR] [FRAMES]
                           photokiosk-bench frames [PHOTO-DIR] [REPS]
                           photokiosk-bench kenburns [PHOTO-DIR] [REPS]
                           photokiosk-bench decode [PHOTO-DIR] [--eighths]
                           photokiosk-bench formats [PHOTO-DIR]
                           photokiosk-bench first-frame [PHOTO-DIR] [REPS]
                           photokiosk-bench places [TABLE]

                    """
                let unknown = arguments[i] == "--help" || arguments[i] == "-h" ? "" : "photokiosk-bench: unknown option \(arguments[i])\n"
                try? (unknown.isEmpty ? FileDescriptor.standardOutput : .standardError).writeAll(Array((unknown + usage).utf8))
                exit(unknown.isEmpty ? 0 : 2)
            }
            i += 2
        }
        try BenchRun(options: options).run()
    }
} catch {
    sayError("photokiosk-bench: \(error)")
    exit(1)
}
