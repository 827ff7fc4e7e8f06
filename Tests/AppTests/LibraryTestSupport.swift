import Imaging
import PhotoKioskApp
import Platform
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

func symlink(_ target: String, at link: RawPath) {
    let result = link.withCString { linkPath in symlink(target, linkPath) }
    precondition(result == 0, "symlink failed")
}

func rename(_ from: RawPath, _ to: RawPath) {
    let result = from.withCString { a in to.withCString { b in rename(a, b) } }
    precondition(result == 0, "rename failed: \(errno)")
}

extension PhotoList {
    var paths: [RawPath] { photos.map(\.path) }
}

extension EventLoop {
    /// Runs the loop until `quiet` seconds pass without a wakeup (at most `limit` seconds), so a
    /// test that then expects no wakeup does not count the start-up's late deliveries (decode
    /// results, the scan's last batch), which arrive later on a loaded machine.
    func runUntilQuiet(for quiet: Double = 0.5, limit: Double = 20) throws {
        let deadline = now + limit
        while now < deadline {
            let before = wakeups
            let windowEnd = min(now + quiet, deadline)
            while now < windowEnd && wakeups == before { _ = try runOnce(timeout: windowEnd - now) }
            if wakeups == before { return }
        }
    }
}
