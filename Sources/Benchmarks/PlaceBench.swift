import Basics
import Glibc
import Graphics
import Imaging
import PhotoKioskApp
import SystemAccess
import SystemPackage

/// The overlay's place lookup (`photokiosk-bench places`): what opening the mapped table costs,
/// a lookup's CPU time where towns are dense (central Europe) and anywhere on the globe, and the
/// memory the lookups leave mapped in (file pages, reclaimable, not the program's own).
struct PlaceBench {
    let path: String

    /// VmRSS and RssFile of this process, kB.
    static func resident() -> (total: Int, file: Int) {
        guard let status = readText("/proc/self/status") else { return (0, 0) }
        var total = 0, file = 0
        for text in status.split(separator: "\n") {
            let number = Int(text.split(separator: " ").dropFirst().first.map(String.init) ?? "") ?? 0
            if text.hasPrefix("VmRSS:") { total = number }
            if text.hasPrefix("RssFile:") { file = number }
        }
        return (total, file)
    }

    /// `places [TABLE]`: the checkout's or the installed table by default.
    static func command(_ arguments: [String]) throws {
        guard let path = arguments.first ?? ResourceLocator.placeTable() else {
            say("photokiosk-bench places: no place table found; pass assets/places/places.bin")
            exit(2)
        }
        try PlaceBench(path: path).run()
    }

    /// Resident kB of the mapping of `path` (its pages that lookups touched), from smaps.
    static func mappedResident(_ path: String) -> Int {
        guard let smaps = readText("/proc/self/smaps") else { return 0 }
        var inMapping = false, total = 0
        for text in smaps.split(separator: "\n") {
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                inMapping = text.hasSuffix(path)
            } else if inMapping, fields.first == "Rss:", fields.count > 1 {
                total += Int(fields[1]) ?? 0
            }
        }
        return total
    }

    func run(lookups: Int = 20_000) throws {
        // Out of the page cache first, so the first lookup reads from the disk as after a boot.
        if let file = try? FileDescriptor.openFile(FilePath(path), .readOnly) {
            try? file.dropCachedPages()
            file.closeQuietly()
        }
        let before = Self.resident().total
        var start = SystemClock.monotonicSeconds()
        let table = try PlaceTable(path: path)
        let openTime = SystemClock.monotonicSeconds() - start
        let opened = Self.resident().total
        var random = SeededRandom(seed: 21)
        start = SystemClock.monotonicSeconds()
        _ = table.nearest(to: GeoPosition(latitude: 48.2, longitude: 16.37)!)
        let firstLookup = SystemClock.monotonicSeconds() - start
        let absolute = FileSystemCalls.resolved(FilePath(path))?.string ?? path
        say("place table \(path): open \(ms(openTime)) ms, first lookup (from disk) \(ms(firstLookup)) ms; "
            + "the table's resident pages: \(Self.mappedResident(absolute)) kB after one lookup")
        for (name, latitudes, longitudes) in [("central Europe", 43.0...55.0, -5.0...25.0), ("the globe", -60.0...75.0, -180.0...180.0)] {
            var found = 0
            var samples = Samples()
            for _ in 0..<lookups {
                let position = GeoPosition(latitude: Double.random(in: latitudes, using: &random),
                                           longitude: Double.random(in: longitudes, using: &random))!
                let t = SystemClock.threadCPUSeconds()
                if table.nearest(to: position) != nil { found += 1 }
                samples.add(SystemClock.threadCPUSeconds() - t)
            }
            say("  \(name): \(lookups) lookups, \(found) named; per lookup median \(fixed(samples.median * 1e6, 1)) µs, p90 \(fixed(samples.percentile(90) * 1e6, 1)) µs, max \(fixed(samples.percentile(100) * 1e6, 1)) µs")
        }
        let after = Self.resident().total
        say("  the table's resident pages after \(2 * lookups) lookups: \(Self.mappedResident(absolute)) kB of \(table.byteCount / 1024) kB; "
            + "process VmRSS \(before) kB before opening, \(opened) kB opened, \(after) kB after")
    }
}
