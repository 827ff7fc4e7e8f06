import Graphics

/// Where a playing clip can go on the display's video plane: the one view showing a video
/// frame, and the part of it nothing is drawn over. A plane is above the screen's own buffer,
/// so whatever the tree paints after the frame would be hidden under it: opaque views there
/// (a clip's progress bar) are cut out of the plane's rectangle and stay on the screen; anything
/// else there that shows (fading chrome, a caption, an overlay) keeps the frame off the plane.
public struct VideoPlacement {
    public let view: View
    public let frame: VideoFrame
    /// The part of the frame shown, in the frame's pixels.
    public let source: PixelRect
    /// Where, in window pixels; the same size as `source`.
    public let destination: PixelRect
}

extension Window {
    /// The placement of the one video frame in the tree, when it is drawn 1:1, wholly opaque,
    /// and what covers it leaves a single rectangle; nil otherwise (no frame, two frames, scaled,
    /// fading, covered by something translucent).
    public func videoPlacement() -> VideoPlacement? {
        layoutIfNeeded()
        var painted: [PaintedArea] = []
        collect(self, origin: position + transform.translation, scale: transform.scale,
                clip: PixelRect(snapping: Rect(origin: position + transform.translation, size: bounds.size * transform.scale)),
                alpha: 1, into: &painted)
        let surfaces = painted.indices.filter { painted[$0].video != nil }
        guard surfaces.count == 1, let index = surfaces.first, let video = painted[index].video,
              video.drawn.width == video.frame.width, video.drawn.height == video.frame.height else { return nil }
        var area = video.drawn.intersection(painted[index].visible)
        for later in painted[(index + 1)...] where !later.visible.intersection(area).isEmpty {
            guard later.isOpaque else { return nil }
            let left = area.subtracting(later.visible)
            guard left.count == 1 else { return nil }
            area = left[0]
        }
        guard !area.isEmpty else { return nil }
        return VideoPlacement(view: painted[index].view, frame: video.frame,
                              source: area.offsetBy(dx: -video.drawn.x, dy: -video.drawn.y), destination: area)
    }

    /// Puts `view`'s video on the plane (nil: none is); a view taken off redraws its frame.
    public func setVideoOnPlane(_ view: View?) {
        guard view !== videoOnPlaneView else { return }
        videoOnPlaneView?.isVideoOnPlane = false
        videoOnPlaneView = view
        view?.isVideoOnPlane = true
    }

    /// What one view paints, in paint order: its own drawing (`video` when it shows a frame),
    /// or what its `drawForeground` paints over its subviews.
    private struct PaintedArea {
        let view: View
        /// Window pixels it may paint, cut by the clipping views above it.
        let visible: PixelRect
        /// It paints every pixel there, unblended.
        let isOpaque: Bool
        let video: (frame: VideoFrame, drawn: PixelRect)?
    }

    /// Walks the tree as `render` draws it (Window+Rendering): the same origins, scales and clips.
    private func collect(_ view: View, origin: Point, scale: Double, clip: PixelRect, alpha: Double,
                         into painted: inout [PaintedArea]) {
        guard !view.isHidden, view.alpha >= 0.01 else { return }
        let alpha = alpha * view.alpha
        let own = PixelRect(snapping: Rect(origin: origin, size: view.bounds.size * scale))
        let inside = view.clipsToBounds ? clip.intersection(own) : clip
        func device(_ rect: Rect) -> PixelRect {
            PixelRect(snapping: Rect(origin: origin + (rect.origin - view.bounds.origin) * scale, size: rect.size * scale))
        }
        let video = alpha >= 1 ? view.videoContent.map { ($0.frame, device($0.rect)) } : nil
        painted.append(PaintedArea(view: view, visible: own.intersection(inside), isOpaque: alpha >= 1 && view.isOpaque, video: video))
        for subview in view.subviews {
            collect(subview, origin: origin + (subview.frame.origin - view.bounds.origin) * scale,
                    scale: scale * subview.transform.scale, clip: inside, alpha: alpha, into: &painted)
        }
        for rect in view.foregroundRects {
            painted.append(PaintedArea(view: view, visible: device(rect).intersection(inside), isOpaque: false, video: nil))
        }
    }
}
