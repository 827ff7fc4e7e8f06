import UI
import Widgets

/// The person's own photo order: a drag (in the grid or the album's filmstrip) moves a photo and
/// the order is saved; a long press on an empty spot of the grid asks whether to go back to name
/// (or date) order.
final class PhotoOrderEditor {
    /// Where the order is kept; nil when there is no state directory (this run only).
    let customOrder: CustomOrderStore?
    /// "Reset the photo order?", while asked.
    private(set) var resetPrompt: ConfirmPromptView?
    private let photos: PhotoList
    private let grid: ThumbnailGridView
    private let window: Window
    /// Whether the library scan has finished (a save before then keeps the photos not yet listed).
    var isScanFinished: () -> Bool = { false }

    init(customOrder: CustomOrderStore?, photos: PhotoList, grid: ThumbnailGridView, window: Window) {
        self.customOrder = customOrder
        self.photos = photos
        self.grid = grid
        self.window = window
    }

    /// A drag moved a photo: the list takes the new order and it is saved.
    func movePhoto(from: Int, to: Int) {
        photos.move(from: from, to: to)
        customOrder?.save(scanFinished: isScanFinished())
    }

    /// Asks "Reset to name order?" over the grid (a long press on an empty spot of the grid).
    func confirmResetOrder() {
        guard photos.hasCustomOrder, resetPrompt == nil else { return }
        let prompt = ConfirmPromptView(frame: window.bounds, message: "Reset the photo order to \(photos.order == .dateTaken ? "date" : "name") order?",
                                       confirmTitle: "Reset")
        prompt.font = grid.font
        prompt.onFinish = { [weak self] confirmed in
            self?.resetPrompt = nil
            if confirmed { self?.resetOrder() }
        }
        window.addSubview(prompt)
        window.firstResponder = prompt
        resetPrompt = prompt
    }

    /// Forgets the custom order: back to name (or date) order.
    func resetOrder() {
        grid.cancelReorder()
        photos.setCustomOrder(nil)
        customOrder?.reset()
        grid.reloadData()
    }
}
