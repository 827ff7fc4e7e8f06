import Graphics
import UI
import Widgets

/// Lays a `TiledPhotoContent` over a photo page (an album page, a simple viewer) and takes over
/// its zooming while attached: the page's own zoom gestures are switched off so pinches and
/// double taps reach the tiled view, and are switched back on by `detach()` (the page scrolled
/// away, or the album closed). Pans the tiled view cannot use (at fit) pass on to the pager.
public final class TiledPhotoAttachment {
    public let content: TiledPhotoContent
    public private(set) weak var page: View?
    private var disabled: [(GestureRecognizer, Bool)] = []

    /// `recognizers`: the page's zoom gestures (its pinch, its double tap).
    public init(content: TiledPhotoContent, over page: View, disabling recognizers: [GestureRecognizer]) {
        self.content = content
        self.page = page
        disabled = recognizers.map { ($0, $0.isEnabled) }
        for recognizer in recognizers { recognizer.isEnabled = false }
        // A scroll view page shows its bounds at its content offset: cover exactly that. The
        // page's photo is fitted to those bounds as the tiled view's is, so until the tiles
        // arrive it shows through them (thumbnail, then the screen-sized decode), not grey.
        content.view.frame = page.bounds
        content.view.showsBackdrop = (page as? PhotoPageView)?.isAtMinimumZoom ?? false
        // At fit the page's screen-sized decode is as sharp as fit tiles: those are not loaded.
        content.view.isBackdropSharp = { [weak page] in
            ((page as? PhotoPageView)?.content.quality ?? .thumbnail) >= .screen
        }
        page.addSubview(content.view)
        content.start()
    }

    deinit { detach() }

    /// Removes the tiled view and gives the page its gestures back.
    public func detach() {
        content.stop()
        content.view.removeFromSuperview()
        for (recognizer, wasEnabled) in disabled { recognizer.isEnabled = wasEnabled }
        disabled = []
    }
}
