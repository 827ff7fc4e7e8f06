import Graphics
import Imaging

/// The frame-time histogram in BENCHMARKS.md, drawn with the project's own Canvas, Font and
/// PNGEncoder: one bar per time bin, with the memcpy floor and the target marked.
struct FrameHistogram {
    var title: String
    var frameTimes: Samples          // seconds
    var floor: Double                // seconds (one memcpy of a frame)
    var target: Double               // seconds

    func write(to path: String) throws {
        let width = 640, height = 300
        let bitmap = Bitmap(width: width, height: height)
        let canvas = Canvas(target: bitmap)
        canvas.clear(.white)
        let font = try? Font.standard(pixelSize: 12)
        let plot = Rect(x: 50, y: 36, width: Double(width) - 70, height: Double(height) - 76)
        let upper = max(target * 1.25, frameTimes.percentile(99) * 1.2)
        let binCount = 50
        var bins = [Int](repeating: 0, count: binCount)
        for t in frameTimes.values {
            bins[min(binCount - 1, Int(t / upper * Double(binCount)))] += 1
        }
        let tallest = max(1, bins.max() ?? 1)
        let barWidth = plot.width / Double(binCount)
        for (i, n) in bins.enumerated() where n > 0 {
            let h = plot.height * Double(n) / Double(tallest)
            canvas.fill(Rect(x: plot.minX + Double(i) * barWidth + 1, y: plot.maxY - h, width: barWidth - 2, height: h),
                        color: Color(rgb: 0x3A6EA5))
        }
        canvas.fill(Rect(x: plot.minX, y: plot.maxY, width: plot.width, height: 1), color: .black)
        canvas.fill(Rect(x: plot.minX, y: plot.minY, width: 1, height: plot.height), color: .black)
        func marker(_ seconds: Double, _ color: Color, _ label: String, row: Int) {
            guard seconds < upper else { return }
            let x = plot.minX + plot.width * seconds / upper
            canvas.fill(Rect(x: x.rounded(), y: plot.minY, width: 2, height: plot.height), color: color)
            if let font { canvas.drawText(label, at: Point(x: x + 4, y: plot.minY + 14 + Double(row) * 14), font: font, color: color) }
        }
        marker(floor, Color(rgb: 0x2E8B57), "memcpy \(ms(floor)) ms", row: 0)
        marker(frameTimes.median, Color(rgb: 0x333333), "median \(ms(frameTimes.median)) ms", row: 1)
        marker(target, Color(rgb: 0xC0392B), "target \(ms(target)) ms", row: 2)
        if let font {
            canvas.drawText(title, at: Point(x: 10, y: 22), font: font, color: .black)
            let ticks = 5
            for i in 0...ticks {
                let t = upper * Double(i) / Double(ticks)
                let x = plot.minX + plot.width * Double(i) / Double(ticks)
                canvas.fill(Rect(x: x, y: plot.maxY, width: 1, height: 5), color: .black)
                canvas.drawText(ms(t), at: Point(x: x - 10, y: plot.maxY + 18), font: font, color: .black)
            }
            canvas.drawText("frame time (ms, thread CPU) — \(frameTimes.count) frames; bar height = frame count",
                            at: Point(x: plot.minX, y: Double(height) - 8), font: font, color: .black)
        }
        try PNGEncoder.write(bitmap, to: path, compression: 9)
    }
}
