/// Library updates (scan batches, folder changes, rescans) that arrive while a thumbnail is
/// carried in the grid wait until it lands. Applied at once they would change the grid's layout
/// under the drag, which puts the carried thumbnail back and forgets the move: on a frame that
/// receives photos by Syncthing or rclone, a person reordering would keep losing their drag.
/// Held, they run in the order they came once the drag has ended (its move already saved).
final class LibraryUpdateHold {
    private let isHolding: () -> Bool
    private var held: [() -> Void] = []

    init(while isHolding: @escaping () -> Bool) {
        self.isHolding = isHolding
    }

    /// How many updates wait for the drag to end.
    var count: Int { held.count }

    /// Runs `update` now, or when `release` is called if a drag is on.
    func run(_ update: @escaping () -> Void) {
        if isHolding() { held.append(update) } else { update() }
    }

    /// The drag ended: every held update runs, oldest first.
    func release() {
        while !held.isEmpty, !isHolding() {
            held.removeFirst()()
        }
    }
}
