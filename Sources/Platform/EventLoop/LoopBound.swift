/// A value owned by the event loop's thread that may travel through other threads (a worker's
/// closure, the mailbox) but is read and changed only back on the loop: every access checks
/// that (debug builds), so one type replaces the unchecked boxes each caller wrote for itself.
/// It is `Sendable` because only the loop's thread ever touches the value.
public struct LoopBound<Value>: @unchecked Sendable {
    private let owner: LoopThread
    private var stored: Value

    /// Must be called on the loop's thread.
    public init(_ value: Value, on owner: LoopThread) {
        owner.assertCurrent("LoopBound.init")
        self.owner = owner
        stored = value
    }

    public var value: Value {
        get {
            owner.assertCurrent("LoopBound.value")
            return stored
        }
        set {
            owner.assertCurrent("LoopBound.value")
            stored = newValue
        }
    }
}

/// A weak reference to a loop-owned object, handed through another thread and used only back
/// on the loop (a worker's result posted to the mailbox finds its owner, if it still lives).
/// The reference itself may be made on any thread (taking a weak reference is thread-safe);
/// following it is checked to happen on the loop (debug builds).
public struct WeakLoopBound<Object: AnyObject>: @unchecked Sendable {
    private let owner: LoopThread
    private weak var object: Object?

    public init(_ object: Object?, on owner: LoopThread) {
        self.owner = owner
        self.object = object
    }

    public var value: Object? {
        owner.assertCurrent("WeakLoopBound.value")
        return object
    }
}
