import Graphics

/// The set of images a view wants right now, kept in step with an `ImageLoader`.
///
/// A grid calls `update(_:)` after each layout with every key it wants (visible cells and a
/// prefetch margin) and its distance from the viewport. New keys are requested, known ones
/// re-prioritised, and keys no longer wanted are withdrawn — so a fling that passes a thousand
/// cells leaves only the last screenful queued. A key whose bitmap arrived is not requested again
/// while it stays wanted; call `reload(_:)` when its file changed or the bitmap was evicted.
///
/// Lives on the event loop thread, like the completions it forwards.
public final class LoadSet {
    private enum State {
        case loading(LoadTicket)
        case done
    }

    private let loader: ImageLoader
    private let completion: ImageLoader.Completion
    private var states: [ImageKey: State] = [:]

    /// `completion` runs (on the loop) for every image that arrives while it is still wanted.
    public init(loader: ImageLoader, completion: @escaping ImageLoader.Completion) {
        self.loader = loader
        self.completion = completion
    }

    /// Keys requested and not yet arrived.
    public var loadingCount: Int {
        states.values.reduce(0) { count, state in
            if case .loading = state { return count + 1 } else { return count }
        }
    }

    /// Makes `wanted` (key → distance to the viewport) the set being loaded.
    public func update(_ wanted: [ImageKey: Double]) {
        for (key, state) in states where wanted[key] == nil {
            if case .loading(let ticket) = state { loader.cancel(ticket) }
            states[key] = nil
        }
        for (key, distance) in wanted {
            switch states[key] {
            case .loading(let ticket)?: loader.update(ticket, distance: distance)
            case .done?: continue
            case nil: start(key, distance: distance)
            }
        }
    }

    /// Loads `key` again (its file changed, or its bitmap was evicted while still wanted).
    public func reload(_ key: ImageKey, distance: Double) {
        if case .loading(let ticket)? = states[key] { loader.cancel(ticket) }
        start(key, distance: distance)
    }

    /// Withdraws everything (the view went away).
    public func removeAll() { update([:]) }

    private func start(_ key: ImageKey, distance: Double) {
        var ticketID: UInt64 = 0
        let ticket = loader.request(key, distance: distance) { [weak self] key, result in
            guard let self, case .loading(let current)? = states[key], current.id == ticketID else { return }
            states[key] = .done
            completion(key, result)
        }
        ticketID = ticket.id
        states[key] = .loading(ticket)
    }
}
