import Basics
import Graphics
import Imaging
/// Which photo the slideshow shows next. Sequential follows the library order and wraps; shuffle
/// shows every photo once, in a seeded random order, before any repeats (and never the same photo
/// twice in a row across rounds). The photo list may change while it runs: new photos join the
/// current round, removed ones are skipped.
public struct SlideshowSequencer: Equatable, Sendable {
    public private(set) var photos: [RawPath]
    public private(set) var order: KioskConfig.SlideshowOrder
    /// The photo on screen (it may have been removed from the library since).
    public private(set) var current: RawPath?
    private var rng: SeededRandom
    /// Shuffle: photos not yet shown in this round.
    private var unshown: Set<RawPath>
    /// Sequential: where to continue when the current photo was removed from the list.
    private var successorOfRemoved: RawPath?

    public init(photos: [RawPath], order: KioskConfig.SlideshowOrder, seed: UInt64, current: RawPath? = nil) {
        self.photos = photos
        self.order = order
        self.rng = SeededRandom(seed: seed)
        self.current = current
        self.unshown = Set(photos)
        if let current { unshown.remove(current) }  // resumed: it was shown already
    }

    /// Another order from now on (a setting changed on the remote page): a shuffle starts a new
    /// round after the photo on screen; sequential goes on from it in library order.
    public mutating func setOrder(_ newOrder: KioskConfig.SlideshowOrder) {
        guard newOrder != order else { return }
        order = newOrder
        unshown = Set(photos)
        if let current { unshown.remove(current) }
        successorOfRemoved = nil
    }

    /// Moves to the next photo and returns it; nil when there are no photos.
    public mutating func advance() -> RawPath? {
        guard !photos.isEmpty else {
            current = nil
            return nil
        }
        let next: RawPath
        switch order {
        case .sequential:
            if let successor = successorOfRemoved {
                next = successor
            } else if let current, let i = photos.firstIndex(of: current) {
                next = photos[(i + 1) % photos.count]
            } else {
                next = photos[0]
            }
            successorOfRemoved = nil
        case .shuffle:
            if unshown.isEmpty { unshown = Set(photos) }
            // Draw in library order so the same seed and list give the same sequence. The photo on
            // screen can only be drawn again at the start of a round; not then either if others remain.
            var candidates = photos.filter(unshown.contains)
            if candidates.count > 1, let current { candidates.removeAll { $0 == current } }
            next = candidates[Int.random(in: 0..<candidates.count, using: &rng)]
            unshown.remove(next)
        }
        current = next
        return next
    }

    /// Shows `photo` now (a step back through what was shown); the order continues from it.
    public mutating func jump(to photo: RawPath) {
        current = photo
        unshown.remove(photo)
        successorOfRemoved = nil
    }

    /// The photo before the current one in library order (sequential), for a step back with
    /// nothing shown before it; nil in shuffle order or without photos.
    public var predecessor: RawPath? {
        guard order == .sequential, !photos.isEmpty, let current, let i = photos.firstIndex(of: current) else { return nil }
        return photos[(i + photos.count - 1) % photos.count]
    }

    /// The library changed (a scan, a folder watch event).
    public mutating func update(photos newPhotos: [RawPath]) {
        let newSet = Set(newPhotos)
        if order == .sequential, let current, !newSet.contains(current) {
            // Continue from where the removed photo was: the first survivor after it (or after the
            // successor chosen at an earlier removal, itself included).
            let anchor = successorOfRemoved.flatMap(photos.firstIndex(of:)) ?? photos.firstIndex(of: current).map { $0 + 1 }
            if let anchor, !photos.isEmpty {
                let start = anchor % photos.count
                successorOfRemoved = (photos[start...] + photos[..<start]).first(where: newSet.contains)
            } else {
                successorOfRemoved = nil
            }
        }
        unshown = unshown.intersection(newSet).union(newSet.subtracting(photos))
        photos = newPhotos
    }
}
