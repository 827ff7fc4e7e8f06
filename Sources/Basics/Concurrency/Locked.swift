/// A value guarded by a `ThreadMutex`: the project's replacement for `Synchronization.Mutex`
/// (see `ThreadMutex` for why), with the same `withLock` shape so call sites read alike.
/// The value is reached only inside `withLock`, which is what makes sharing it safe.
public final class Locked<State>: @unchecked Sendable {
    private let mutex = ThreadMutex()
    private var state: State

    public init(_ initial: sending State) {
        state = initial
    }

    public func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { () throws(Failure) -> Result in try body(&state) }
    }
}
