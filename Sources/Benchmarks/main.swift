import Glibc
import Graphics
import Imaging

// photokiosk-bench: the figures of BENCHMARKS.md. `make bench` runs
//   photokiosk-bench run [--corpus DIR] [--work DIR] [--reps N] [--markdown FILE] [--histogram FILE]
// and the app measurements re-run this program as `photokiosk-bench child ...`.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "child" {
        try runChild(Array(arguments.dropFirst()))
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
            default: fatalError("unknown option \(arguments[i]); see Sources/Benchmarks/main.swift")
            }
            i += 2
        }
        try BenchRun(options: options).run()
    }
} catch {
    let message = Array("photokiosk-bench: \(error)\n".utf8)
    _ = message.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    exit(1)
}
