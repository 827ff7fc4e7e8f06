import Graphics
import UI

/// A reorderable scroll view that keeps its cells in `ReorderableCells` (the grid, the strip):
/// what a drag's plan change, drop and landing do to the cells is the same for both, so it is
/// written once here; each view keeps its own slots (`reorderSlotFrame`, `reorderSlot(at:)`).
protocol ReorderingCellHost: ReorderHost {
    associatedtype Cell: ReorderableCell
    var reorderCells: ReorderableCells<Cell> { get }
    var itemCount: Int { get }
    /// A drop that moved a photo: from its index to its new one.
    var onMove: ((_ from: Int, _ to: Int) -> Void)? { get }
    /// The carried cell has landed (moved or not, dropped or cancelled): the drag is over.
    var onReorderEnd: (() -> Void)? { get }
    /// The photos changed places: the next layout asks for every visible thumbnail again.
    func forgetWantedThumbnails()
    /// Takes `cell` off the view for reuse.
    func recycle(_ cell: Cell)
}

extension ReorderingCellHost {
    func reorderPlanDidChange(_ plan: ReorderPlan) {
        reorderCells.planDidChange(plan, in: self)
        setNeedsLayout()
    }

    func reorderDidDrop(_ plan: ReorderPlan) {
        reorderCells.didDrop(plan)
        forgetWantedThumbnails()
        if plan.from != plan.to { onMove?(plan.from, plan.to) }
        setNeedsLayout()
    }

    func reorderDidLand(_ item: View, at index: Int) {
        if let homeless = reorderCells.didLand(item, at: index, itemCount: itemCount, in: self) { recycle(homeless) }
        setNeedsLayout()
        onReorderEnd?()
    }
}
