import Imaging
import PhotoKioskApp
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Opt-in measurements (PK_BENCH=1 swift test --filter LibraryBenchmarks): printed, never asserted.
@Suite("LibraryBenchmarks", .enabled(if: getenv("PK_BENCH") != nil))
struct LibraryBenchmarks {
    @Test func scanTenThousand() throws {
        let scratch = ScratchDirectory()
        for folder in 0..<100 {
            let dir = scratch.directory("lib/f\(folder)")
            for index in 0..<100 { writeFile(dir.appending("IMG_\(index).jpg"), []) }
        }
        let scanner = LibraryScanner(roots: [scratch["lib"]], logger: LogCapture().logger)
        var firstBatch = 0.0
        let start = monotonicSeconds()
        var files: [ScannedFile] = []
        let scan = measureSeconds {
            scanner.scan(batchSize: 256) { batch in
                if files.isEmpty {
                    firstBatch = monotonicSeconds() - start
                }
                files += batch
            }
        }
        let list = PhotoList()
        let sort = measureSeconds { list.add(files) }
        let watcher = try InotifyWatcher(scanner: scanner)
        let watch = measureSeconds { _ = try? InotifyWatcher(scanner: scanner) }
        print("library: 10,000 files scanned in \(scan * 1000) ms (first batch of 256 after \(firstBatch * 1000) ms), sorted into PhotoList in \(sort * 1000) ms, inotify setup (\(watcher.watchCount) dirs) \(watch * 1000) ms")
    }
}
