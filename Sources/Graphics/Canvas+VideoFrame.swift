/// Drawing a video frame: straight from its YUV planes into the canvas's pixels when it is shown
/// at its own size (the usual case: a clip is decoded at the size it is shown), else through an
/// XRGB bitmap that pixman scales or blends.
extension Canvas {
    /// Draws `frame` into `rect`, scaling as needed (`quality` is used only then).
    public func draw(_ frame: VideoFrame, in rect: Rect, quality: ScalingQuality = .bilinear) {
        guard !rect.isEmpty, alpha > 0 else { return }
        let device = snappedDevice(rect)
        guard alpha >= 1, device.width == frame.width, device.height == frame.height,
              target.format == .xrgb8888 || target.format == .argb8888
        else {
            draw(frame.bitmapForScaledDrawing(), in: rect, quality: quality)
            return
        }
        let area = device.intersection(clipRect)
        guard !area.isEmpty else { return }
        let source = PixelRect(x: area.x - device.x, y: area.y - device.y, width: area.width, height: area.height)
        frame.convert(source, into: target.pixels + area.y * target.stride + area.x * 4, stride: target.stride)
    }
}
