import Graphics
import UI

/// A cell of a reorderable scroll view (a grid cell, a strip item): it knows the photo it shows.
protocol ReorderableCell: View {
    var index: Int { get set }
}

/// The live cells of a reorderable scroll view (the grid, the strip), keyed by the photo they
/// show, and what a drag does to them: the picked-up cell leaves the dictionary, the others slide
/// to their slots in the plan, a drop re-keys them to their new photos, and the landed cell comes
/// back. The owner keeps building, recycling and placing cells; the one drag lives here.
final class ReorderableCells<Cell: ReorderableCell> {
    /// Cells keyed by photo (not slot: the two differ while a thumbnail is dragged).
    private(set) var byIndex: [Int: Cell] = [:]
    /// The drag in progress (also while the dropped cell flies home).
    private(set) var drag: ReorderDrag?
    private let transition = FrameTransition()
    /// The slot the dropped cell is flying home to (no cell is built there meanwhile).
    private var landingSlot: Int?

    /// The photo carried by the drag (or landing), whose cell is not in `byIndex`.
    var carriedItem: Int? {
        guard let drag else { return nil }
        return drag.isLanding ? landingSlot : drag.plan.from
    }

    /// The cell showing photo `index`, also while it is carried.
    func cell(at index: Int) -> Cell? {
        if let drag, index == carriedItem { return drag.lifted.item as? Cell }
        return byIndex[index]
    }

    /// The photo shown in `slot` now (they differ only while a thumbnail is being dragged).
    func item(inSlot slot: Int) -> Int {
        guard let drag, !drag.isLanding else { return slot }
        return drag.plan.item(atDisplay: slot)
    }

    func insert(_ cell: Cell, at index: Int) { byIndex[index] = cell }

    /// Takes out every cell whose photo is not in `wanted` and returns them for recycling.
    func removeAll(except wanted: Set<Int>) -> [Cell] {
        var removed: [Cell] = []
        for (index, cell) in byIndex where !wanted.contains(index) {
            transition.remove(cell)
            byIndex[index] = nil
            removed.append(cell)
        }
        return removed
    }

    /// Puts `cell` at `frame` unless it is sliding there (a drag is making room).
    func place(_ cell: Cell, at frame: Rect) {
        if cell.frame != frame && !transition.isMoving(cell) { cell.frame = frame }
    }

    /// Lifts photo `index`'s cell out of `host` into `container`; false when it has no cell.
    func pickUp(_ index: Int, from host: some ReorderHost, finger: Point, container: View,
                axis: EdgeAutoscroller.Axis, density: Double) -> Bool {
        guard let cell = byIndex.removeValue(forKey: index) else { return false }
        transition.remove(cell)
        drag = ReorderDrag(host: host, item: cell, index: index, finger: finger, container: container,
                           axis: axis, density: density)
        return true
    }

    /// Puts a carried cell back where it came from without moving anything.
    func cancel() {
        guard let drag else { return }
        if !drag.isLanding { drag.cancel() }
        drag.finishNow()
        transition.finish()
    }

    /// Slides the other cells to their slots in `plan`.
    func planDidChange(_ plan: ReorderPlan, in host: some ReorderHost) {
        let targets: [(view: View, frame: Rect)] = byIndex.map {
            ($0.value, host.reorderSlotFrame(plan.displayIndex(of: $0.key)))
        }
        transition.move(targets, duration: ReorderDrag.rearrangeDuration, animator: host.window?.animator)
    }

    /// The cells now belong to their new photos; those sliding keep sliding to the same frames.
    func didDrop(_ plan: ReorderPlan) {
        byIndex = plan.rekeyed(byIndex)
        for (index, cell) in byIndex { cell.index = index }
        (drag?.lifted.item as? Cell)?.index = plan.to
        landingSlot = plan.to
    }

    /// Ends the drag: the landed cell goes back into `host` at slot `index` if that slot is
    /// still free and holds a photo; otherwise it is returned for recycling.
    func didLand(_ item: View, at index: Int, itemCount: Int, in host: some ReorderHost) -> Cell? {
        landingSlot = nil
        drag = nil
        guard let cell = item as? Cell else { return nil }
        cell.transform = .identity
        guard byIndex[index] == nil && index < itemCount else { return cell }
        cell.index = index
        cell.frame = host.reorderSlotFrame(index)
        byIndex[index] = cell
        host.addSubview(cell)
        return nil
    }
}
