import Synchronization

/// A flag a loader sets to stop a decode nobody wants any more (the photo scrolled away).
/// The decoder checks it before starting and every few rows; a stopped decode throws
/// `ImagingError` of kind `.cancelled`. Safe to set from any thread.
public final class DecodeCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// Tests only: cancel by itself after this many polls from the decoder.
    private let pollsLeft: Atomic<Int>

    public init() { pollsLeft = Atomic(Int.max) }

    /* tests only */ init(cancellingAfterPolls polls: Int) { pollsLeft = Atomic(polls) }

    /// One check from inside the decoder.
    func poll() -> Bool {
        if pollsLeft.subtract(1, ordering: .relaxed).newValue <= 0 { cancel() }
        return isCancelled
    }

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func check() throws(ImagingError) {
        if isCancelled { throw ImagingError(.cancelled, "decoding cancelled") }
    }

    /// Context for the C shims' stop check; valid while the caller keeps `self` alive.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The shims' stop check: `context` is an unretained DecodeCancellation.
    static func isCancelled(context: UnsafeMutableRawPointer?) -> Int32 {
        guard let context else { return 0 }
        return Unmanaged<DecodeCancellation>.fromOpaque(context).takeUnretainedValue().poll() ? 1 : 0
    }
}
