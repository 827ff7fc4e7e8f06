#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc tuned for an app whose big allocations (decoded bitmaps, file bytes, decoder
/// buffers) come and go all the time.
///
/// By default glibc raises its mmap threshold each time a large mmapped block is freed (up to
/// 32 MB), so after the first few decodes the thumbnails (~0.5 MB each) and file buffers are
/// carved out of the worker thread's heap arena instead, and freed ones stay there as
/// fragmented free space the OS never gets back: flinging the 10,000-photo grid held ~53 MB of
/// free heap. A fixed threshold keeps every block of 128 KB or more in its own mapping, returned
/// to the OS the moment it is freed.
enum HeapTuning {
    /// Allocations at least this big get their own mapping.
    static let mmapThreshold: Int32 = 128 << 10

    /// Applies the tuning once per process; a no-op where mallopt does not exist (musl).
    static func apply() {
        _ = applied
    }

    private static let applied: Bool = {
        #if canImport(Glibc)
        // mallopt is in malloc.h, which the Glibc module does not export.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        let M_MMAP_THRESHOLD: Int32 = -3
        return mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1
        #else
        return false
        #endif
    }()
}
