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
    func seconds(_ body: () -> Void) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    @Test func scanTenThousand() throws {
        let scratch = ScratchDirectory()
        for folder in 0..<100 {
            let dir = scratch.directory("lib/f\(folder)")
            for index in 0..<100 { writeFile(dir.appending("IMG_\(index).jpg"), []) }
        }
        let scanner = LibraryScanner(roots: [scratch["lib"]], logger: LogCapture().logger)
        var firstBatch = 0.0
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var files: [ScannedFile] = []
        let scan = seconds {
            scanner.scan(batchSize: 256) { batch in
                if files.isEmpty {
                    var now = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &now)
                    firstBatch = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
                }
                files += batch
            }
        }
        let list = PhotoList()
        let sort = seconds { list.add(files) }
        let watcher = try InotifyWatcher(scanner: scanner)
        let watch = seconds { _ = try? InotifyWatcher(scanner: scanner) }
        print("library: 10,000 files scanned in \(scan * 1000) ms (first batch of 256 after \(firstBatch * 1000) ms), sorted into PhotoList in \(sort * 1000) ms, inotify setup (\(watcher.watchCount) dirs) \(watch * 1000) ms")
    }
}
