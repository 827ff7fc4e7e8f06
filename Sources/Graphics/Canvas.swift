import CPixman

/// How a scaled image is sampled.
public enum ScalingQuality: Sendable {
    /// Nearest neighbour: fastest, blocky. For previews during fast animation.
    case nearest
    /// Bilinear: smooth for scales from about 0.5x upwards. The default.
    case bilinear
    /// pixman's GOOD filter: averages more source pixels when shrinking a lot (slower).
    case good
}

/// Draws into a `Bitmap` through pixman: fills, copies, scaled images, alpha and text.
///
/// Keeps a drawing state (translation, clip rectangle, opacity) that views push and pop as the
/// tree is walked. Coordinates are in the current translated space; the clip is kept in device
/// pixels. Not thread-safe: one canvas is used by one thread.
public final class Canvas {
    public let target: Bitmap
    let destination: OpaquePointer

    private struct State {
        var translation: Point
        var clip: PixelRect
        var alpha: Double
    }

    private var state: State
    private var saved: [State] = []

    public init(target: Bitmap) {
        precondition(target.format != .a8, "a canvas draws into a 32-bit bitmap")
        self.target = target
        self.destination = target.makePixmanImage()
        self.state = State(translation: .zero, clip: target.bounds, alpha: 1)
    }

    deinit {
        pixman_image_unref(destination)
    }

    // MARK: State

    /// Current offset from this canvas's coordinates to device pixels.
    public var translation: Point { state.translation }
    /// Current clip, in device pixels.
    public var clipRect: PixelRect { state.clip }
    /// Opacity applied to everything drawn (multiplies).
    public var alpha: Double { state.alpha }

    public func save() {
        saved.append(state)
    }

    public func restore() {
        precondition(!saved.isEmpty, "Canvas.restore() without save()")
        state = saved.removeLast()
    }

    /// Runs `body` with the current state saved, restoring it afterwards.
    public func withSavedState<T>(_ body: () throws -> T) rethrows -> T {
        save()
        defer { restore() }
        return try body()
    }

    public func translate(by delta: Point) {
        state.translation = state.translation + delta
    }

    /// Narrows the clip to `rect` (in current coordinates).
    public func clip(to rect: Rect) {
        state.clip = state.clip.intersection(PixelRect(covering: toDevice(rect)))
    }

    /// Narrows the clip to a rectangle already in device pixels.
    public func clip(toDevice rect: PixelRect) {
        state.clip = state.clip.intersection(rect)
    }

    public func multiplyAlpha(_ factor: Double) {
        state.alpha *= min(1, max(0, factor))
    }

    func toDevice(_ rect: Rect) -> Rect {
        rect.offsetBy(dx: state.translation.x, dy: state.translation.y)
    }

    /// Device pixels a rectangle covers: edges snap to the nearest pixel boundary, so adjacent
    /// rectangles tile without gaps or overlaps.
    func snappedDevice(_ rect: Rect) -> PixelRect {
        PixelRect(snapping: toDevice(rect))
    }

    // MARK: Drawing

    /// Fills `rect` with `color`, blending when the colour or the canvas is translucent.
    public func fill(_ rect: Rect, color: Color) {
        let area = snappedDevice(rect).intersection(state.clip)
        guard !area.isEmpty else { return }
        let c = color.withAlpha(state.alpha)
        guard c.alpha > 0 else { return }
        var pc = c.pixmanColor
        var box = pixman_rectangle16_t(x: Int16(clamping: area.x), y: Int16(clamping: area.y),
                                       width: UInt16(clamping: area.width), height: UInt16(clamping: area.height))
        let op = c.alpha == 255 ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
        pixman_image_fill_rectangles(op, destination, &pc, 1, &box)
    }

    /// Fills the whole clip area (the screen background).
    public func clear(_ color: Color) {
        let saveAlpha = state.alpha
        state.alpha = 1
        let deviceClip = state.clip.rect.offsetBy(dx: -state.translation.x, dy: -state.translation.y)
        fill(deviceClip, color: color)
        state.alpha = saveAlpha
    }

    /// Draws a rectangle outline of the given width inside `rect`.
    public func stroke(_ rect: Rect, color: Color, width: Double = 1) {
        fill(Rect(x: rect.minX, y: rect.minY, width: rect.width, height: width), color: color)
        fill(Rect(x: rect.minX, y: rect.maxY - width, width: rect.width, height: width), color: color)
        fill(Rect(x: rect.minX, y: rect.minY + width, width: width, height: rect.height - 2 * width), color: color)
        fill(Rect(x: rect.maxX - width, y: rect.minY + width, width: width, height: rect.height - 2 * width), color: color)
    }

    /// Draws `source` (or the part `from` of it, in its pixels) into `rect`, scaling as needed.
    ///
    /// When the destination is whole pixels at 1:1 scale this is a plain copy (memcpy speed);
    /// otherwise pixman scales with `quality`. Edge pixels are padded, not blended with black.
    public func draw(_ source: Bitmap, from sourceRect: Rect? = nil, in rect: Rect,
                     quality: ScalingQuality = .bilinear) {
        let src = sourceRect ?? Rect(size: source.size)
        guard !src.isEmpty, !rect.isEmpty, state.alpha > 0 else { return }
        let device = toDevice(rect)
        let area = snappedDevice(rect).intersection(state.clip)
        guard !area.isEmpty else { return }

        let sx = src.width / device.width, sy = src.height / device.height
        let srcImage = source.makePixmanImage()
        defer { pixman_image_unref(srcImage) }

        let isUnitScale = abs(sx - 1) < 1e-9 && abs(sy - 1) < 1e-9
        let offX = src.minX - device.minX, offY = src.minY - device.minY
        let isWholePixelOffset = offX == offX.rounded() && offY == offY.rounded()
        // A scaled draw samples relative to an anchor: the device pixel where `rect` starts, so
        // a picture moved by whole pixels (a scroll that copies pixels) samples exactly as when
        // drawn in place, and one drawn in bands with its source shifted by whole rows
        // (BandedResizer) exactly as when drawn at once.
        var anchor = (x: 0, y: 0)
        if !(isUnitScale && isWholePixelOffset) {
            anchor = (Self.samplingAnchor(device.minX, area: area.x, area.maxX),
                      Self.samplingAnchor(device.minY, area: area.y, area.maxY))
            // Destination pixel centre X + 0.5 samples source x = sx·(X − anchor + 0.5) + (src.x − (device.x − anchor)·sx).
            var f = pixman_f_transform()
            pixman_f_transform_init_identity(&f)
            withUnsafeMutableBytes(of: &f.m) { raw in
                let m = raw.bindMemory(to: Double.self)
                m[0] = sx; m[1] = 0; m[2] = src.minX - (device.minX - Double(anchor.x)) * sx
                m[3] = 0; m[4] = sy; m[5] = src.minY - (device.minY - Double(anchor.y)) * sy
            }
            var t = pixman_transform()
            _ = pixman_transform_from_pixman_f_transform(&t, &f)
            pixman_image_set_transform(srcImage, &t)
            let filter: pixman_filter_t
            switch quality {
            case .nearest: filter = PIXMAN_FILTER_NEAREST
            case .bilinear: filter = PIXMAN_FILTER_BILINEAR
            case .good: filter = PIXMAN_FILTER_GOOD
            }
            pixman_image_set_filter(srcImage, filter, nil, 0)
            pixman_image_set_repeat(srcImage, PIXMAN_REPEAT_PAD)
        }
        // Source coordinates before the transform are destination coordinates less the anchor,
        // except for a 1:1 copy where we shift by the whole-pixel offset directly.
        let srcX = isUnitScale && isWholePixelOffset ? area.x + Int(offX) : area.x - anchor.x
        let srcY = isUnitScale && isWholePixelOffset ? area.y + Int(offY) : area.y - anchor.y
        if isUnitScale && isWholePixelOffset {
            // Keep a 1:1 copy inside the source; pixman would read transparent outside.
            pixman_image_set_repeat(srcImage, PIXMAN_REPEAT_PAD)
        }
        composite(srcImage, format: source.format, srcX: srcX, srcY: srcY, area: area)
    }

    /// The whole device pixel a scaled draw samples from (see `draw`): where its rectangle
    /// starts, unless that is so far from the drawn pixels (a deep zoom) that pixman's 16.16
    /// coordinates would overflow; then the drawn area's own edge.
    private static func samplingAnchor(_ origin: Double, area low: Int, _ high: Int) -> Int {
        guard origin.isFinite, abs(origin) < 1e9 else { return low }
        let anchor = Int(origin.snappedToPixel)
        return abs(low - anchor) < 30_000 && abs(high - anchor) < 30_000 ? anchor : low
    }

    /// Fills `rect` with `color` through an A8 coverage mask of the same size (glyphs, soft shapes).
    public func fill(mask: Bitmap, at origin: Point, color: Color) {
        precondition(mask.format == .a8, "mask must be A8")
        let rect = Rect(origin: origin, size: mask.size)
        let area = snappedDevice(rect).intersection(state.clip)
        guard !area.isEmpty else { return }
        let c = color.withAlpha(state.alpha)
        guard c.alpha > 0 else { return }
        var pc = c.pixmanColor
        guard let solid = pixman_image_create_solid_fill(&pc) else { return }
        defer { pixman_image_unref(solid) }
        let maskImage = mask.makePixmanImage()
        defer { pixman_image_unref(maskImage) }
        let device = snappedDevice(rect)
        pixman_image_composite32(PIXMAN_OP_OVER, solid, maskImage, destination,
                                 0, 0, Int32(area.x - device.x), Int32(area.y - device.y),
                                 Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
    }

    private func composite(_ srcImage: OpaquePointer, format: PixelFormat, srcX: Int, srcY: Int, area: PixelRect) {
        let opaqueSource = format == .xrgb8888
        if state.alpha >= 1 {
            let op = opaqueSource ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
            pixman_image_composite32(op, srcImage, nil, destination, Int32(srcX), Int32(srcY), 0, 0,
                                     Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
        } else {
            var maskColor = Color(red: 0, green: 0, blue: 0, alpha: UInt8((state.alpha * 255).rounded())).pixmanColor
            guard let mask = pixman_image_create_solid_fill(&maskColor) else { return }
            defer { pixman_image_unref(mask) }
            pixman_image_composite32(PIXMAN_OP_OVER, srcImage, mask, destination, Int32(srcX), Int32(srcY), 0, 0,
                                     Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
        }
    }
}
