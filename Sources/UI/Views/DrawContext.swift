import Graphics

/// What a view draws with: the window's canvas plus the accumulated zoom scale.
///
/// Canvas translates and clips but does not scale, so the context maps the view's own bounds
/// coordinates for it: before `draw(in:)` runs, the canvas is translated so that a point p of
/// the view lands at canvas point p·scale. At scale 1 (almost every view) canvas calls work
/// directly in bounds coordinates; a zoomed view draws through these helpers, which scale the
/// destination rectangles, so a bitmap is scaled once by pixman straight into the screen.
public struct DrawContext {
    public let canvas: Canvas
    /// Screen pixels per point of this view (product of the ancestors' transform scales).
    public let scale: Double
    /// The part of the view's bounds being redrawn; anything outside is clipped away anyway.
    public let dirtyRect: Rect

    public init(canvas: Canvas, scale: Double, dirtyRect: Rect) {
        self.canvas = canvas
        self.scale = scale
        self.dirtyRect = dirtyRect
    }

    /// A rectangle of the view's bounds coordinates in canvas coordinates.
    public func canvasRect(_ rect: Rect) -> Rect {
        Rect(x: rect.minX * scale, y: rect.minY * scale, width: rect.width * scale, height: rect.height * scale)
    }

    public func canvasPoint(_ point: Point) -> Point {
        point * scale
    }

    public func fill(_ rect: Rect, color: Color) {
        canvas.fill(canvasRect(rect), color: color)
    }

    public func stroke(_ rect: Rect, color: Color, width: Double = 1) {
        canvas.stroke(canvasRect(rect), color: color, width: width)
    }

    /// Draws `bitmap` (or its part `sourceRect`, in its pixels) into `rect` of the view.
    public func draw(_ bitmap: Bitmap, from sourceRect: Rect? = nil, in rect: Rect,
                     quality: ScalingQuality = .bilinear) {
        canvas.draw(bitmap, from: sourceRect, in: canvasRect(rect), quality: quality)
    }

    /// Draws a video frame into `rect` of the view (straight from its YUV planes at its own size).
    public func draw(_ frame: VideoFrame, in rect: Rect, quality: ScalingQuality = .bilinear) {
        canvas.draw(frame, in: canvasRect(rect), quality: quality)
    }

    /// Text keeps its pixel size (glyphs are not scaled); only its position follows the zoom.
    @discardableResult
    public func drawText(_ text: String, at origin: Point, font: Font, color: Color) -> Double {
        canvas.drawText(text, at: canvasPoint(origin), font: font, color: color)
    }

    public func drawText(_ text: String, centeredIn rect: Rect, font: Font, color: Color) {
        canvas.drawText(text, centeredIn: canvasRect(rect), font: font, color: color)
    }

    /// Whether `rect` of the view could show anything in this pass.
    public func needsDrawing(_ rect: Rect) -> Bool {
        rect.intersects(dirtyRect)
    }
}
