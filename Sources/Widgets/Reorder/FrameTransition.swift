import Graphics
import UI

/// Slides views to new frames together (the thumbnails making room for a dragged one). A new
/// request takes over from wherever the views are, so a finger sweeping across many cells
/// never makes them jump.
final class FrameTransition {
    private var moves: [ObjectIdentifier: (view: View, from: Rect, to: Rect)] = [:]
    private var animation: Animation?
    private var progress = 0.0

    /// Whether `view` is being moved (its owner must not set its frame meanwhile).
    func isMoving(_ view: View) -> Bool { moves[ObjectIdentifier(view)] != nil }

    var isRunning: Bool { !moves.isEmpty }

    /// Moves each view to its target frame over `duration` seconds; without an animator (not on
    /// screen) they jump there.
    func move(_ targets: [(view: View, frame: Rect)], duration: Double, animator: Animator?) {
        var next: [ObjectIdentifier: (view: View, from: Rect, to: Rect)] = [:]
        for (view, frame) in targets where view.frame != frame || isMoving(view) {
            next[ObjectIdentifier(view)] = (view, view.frame, frame)
        }
        // Views still sliding towards a target not requested again keep going from where they are.
        for (key, move) in moves where next[key] == nil {
            next[key] = (move.view, move.view.frame, move.to)
        }
        animation?.cancel()
        animation = nil
        moves = next
        guard !moves.isEmpty else { return }
        guard let animator, duration > 0 else { finish(); return }
        animation = animator.animate(duration: duration, easing: .easeInOut, update: { [weak self] p in
            guard let self else { return }
            for move in self.moves.values {
                move.view.frame = Rect(x: move.from.minX + (move.to.minX - move.from.minX) * p,
                                       y: move.from.minY + (move.to.minY - move.from.minY) * p,
                                       width: move.from.width + (move.to.width - move.from.width) * p,
                                       height: move.from.height + (move.to.height - move.from.height) * p)
            }
        }, completion: { [weak self] completed in
            if completed { self?.moves = [:]; self?.animation = nil }
        })
    }

    /// Stops moving `view` (it was recycled); the others continue.
    func remove(_ view: View) {
        moves[ObjectIdentifier(view)] = nil
    }

    /// Puts every view at its target now.
    func finish() {
        animation?.cancel()
        animation = nil
        for move in moves.values { move.view.frame = move.to }
        moves = [:]
    }
}
