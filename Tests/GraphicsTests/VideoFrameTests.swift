import Testing
@testable import Graphics

/// A playing clip's YUV frames drawn straight into the screen's pixels (issue 35: no 8 MB BGRx
/// copy per frame): the colours the stream's matrix gives, any part of the frame drawn alone
/// equal to the same part of a whole draw (4:2:0 chroma pairs from odd columns and rows), NV12
/// equal to I420, and a scaled or translucent draw through a bitmap.
@Suite("video frames drawn from their YUV planes")
struct VideoFrameTests {
    init() throws {
        if let problem = VideoFrame.loadConverter() {
            Issue.record("libyuv cannot be loaded (install libyuv0): \(problem)")
        }
    }

    /// Planes kept alive for as long as the frame made from them.
    final class Planes: @unchecked Sendable {
        var y: [UInt8], u: [UInt8], v: [UInt8], uv: [UInt8]
        let width: Int, height: Int, lumaStride: Int, chromaStride: Int

        /// A frame whose luma, U and V all change from sample to sample.
        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            lumaStride = width + 5  // rows wider than the picture, as a decoder's are
            chromaStride = (width + 1) / 2 + 3
            let chromaRows = (height + 1) / 2
            y = (0..<(lumaStride * height)).map { UInt8(16 + ($0 * 37) % 220) }
            u = (0..<(chromaStride * chromaRows)).map { UInt8(16 + ($0 * 53) % 224) }
            v = (0..<(chromaStride * chromaRows)).map { UInt8(16 + ($0 * 71 + 90) % 224) }
            uv = []
            for row in 0..<chromaRows {
                for column in 0..<chromaStride {
                    uv.append(u[row * chromaStride + column])
                    uv.append(v[row * chromaStride + column])
                }
            }
        }

        func frame(_ layout: VideoFrame.Layout = .i420, matrix: VideoFrame.Matrix = .bt709) -> VideoFrame {
            let planes: [VideoFrame.Plane]
            switch layout {
            case .i420:
                planes = [y.withUnsafeBytes { .init(base: $0.baseAddress!, stride: lumaStride) },
                          u.withUnsafeBytes { .init(base: $0.baseAddress!, stride: chromaStride) },
                          v.withUnsafeBytes { .init(base: $0.baseAddress!, stride: chromaStride) }]
            case .nv12:
                planes = [y.withUnsafeBytes { .init(base: $0.baseAddress!, stride: lumaStride) },
                          uv.withUnsafeBytes { .init(base: $0.baseAddress!, stride: chromaStride * 2) }]
            }
            return VideoFrame(width: width, height: height, layout: layout, planes: planes, matrix: matrix,
                              fullRange: false) { [self] in _ = self }
        }
    }

    /// One flat colour, given as Y, U, V.
    func flat(y: UInt8, u: UInt8, v: UInt8, matrix: VideoFrame.Matrix) -> (Planes, VideoFrame) {
        let planes = Planes(width: 8, height: 4)
        for i in planes.y.indices { planes.y[i] = y }
        for i in planes.u.indices { planes.u[i] = u }
        for i in planes.v.indices { planes.v[i] = v }
        return (planes, planes.frame(matrix: matrix))
    }

    func near(_ color: Color, _ red: Int, _ green: Int, _ blue: Int) -> Bool {
        abs(Int(color.red) - red) <= 4 && abs(Int(color.green) - green) <= 4 && abs(Int(color.blue) - blue) <= 4
    }

    @Test("colours follow the stream's matrix: BT.601 and BT.709 red, limited-range white and black")
    func matrices() {
        // Pure red in each matrix's limited range (ITU tables).
        let (keep601, red601) = flat(y: 81, u: 90, v: 240, matrix: .bt601)
        let (keep709, red709) = flat(y: 63, u: 102, v: 240, matrix: .bt709)
        let (keepWhite, white) = flat(y: 235, u: 128, v: 128, matrix: .bt709)
        let (keepBlack, black) = flat(y: 16, u: 128, v: 128, matrix: .bt709)
        #expect(near(red601.makeBitmap().color(x: 3, y: 2), 255, 0, 0), "\(red601.makeBitmap().color(x: 3, y: 2))")
        #expect(near(red709.makeBitmap().color(x: 3, y: 2), 255, 0, 0), "\(red709.makeBitmap().color(x: 3, y: 2))")
        #expect(near(white.makeBitmap().color(x: 0, y: 0), 255, 255, 255))
        #expect(near(black.makeBitmap().color(x: 7, y: 3), 0, 0, 0))
        // The same YUV read with the other matrix is a different red: the matrix is applied.
        let (keepOther, other) = flat(y: 63, u: 102, v: 240, matrix: .bt601)
        #expect(other.makeBitmap().pixel(x: 1, y: 1) != red709.makeBitmap().pixel(x: 1, y: 1))
        withExtendedLifetime((keep601, keep709, keepWhite, keepBlack, keepOther)) {}
    }

    @Test("any part drawn at the frame's own size equals that part of a whole draw, from odd and even columns and rows")
    func partsMatchTheWhole() {
        let planes = Planes(width: 13, height: 9)
        let frame = planes.frame()
        let whole = frame.makeBitmap()
        for layout in [VideoFrame.Layout.i420, .nv12] {
            let drawn = layout == .i420 ? frame : planes.frame(.nv12)
            for clip in [PixelRect(x: 4, y: 3, width: 13, height: 9), PixelRect(x: 5, y: 4, width: 6, height: 5),
                         PixelRect(x: 6, y: 5, width: 1, height: 1), PixelRect(x: 9, y: 6, width: 7, height: 2),
                         PixelRect(x: 0, y: 0, width: 8, height: 6)] {
                let target = Bitmap(width: 20, height: 14)
                let canvas = Canvas(target: target)
                canvas.clear(.white)
                canvas.clip(toDevice: clip)
                canvas.draw(drawn, in: Rect(x: 4, y: 3, width: 13, height: 9))
                for y in 0..<14 {
                    for x in 0..<20 {
                        let inside = clip.intersection(PixelRect(x: 4, y: 3, width: 13, height: 9))
                        let expected = x >= inside.x && x < inside.maxX && y >= inside.y && y < inside.maxY
                            ? whole.pixel(x: x - 4, y: y - 3) | 0xFF00_0000 : 0xFFFF_FFFF
                        guard target.pixel(x: x, y: y) | 0xFF00_0000 == expected | 0xFF00_0000 else {
                            Issue.record("\(layout) clip \(clip): pixel (\(x),\(y)) is \(target.color(x: x, y: y))")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test("NV12 converts exactly as I420 with the same samples")
    func nv12() {
        let planes = Planes(width: 10, height: 6)
        let i420 = planes.frame(.i420).makeBitmap(), nv12 = planes.frame(.nv12).makeBitmap()
        for y in 0..<6 {
            for x in 0..<10 { #expect(i420.pixel(x: x, y: y) == nv12.pixel(x: x, y: y), "(\(x),\(y))") }
        }
    }

    @Test("scaled or translucent, a frame is drawn through its bitmap: doubled red fills twice its size, half alpha blends")
    func scaledAndTranslucent() {
        let (keep, red) = flat(y: 81, u: 90, v: 240, matrix: .bt601)
        let target = Bitmap(width: 20, height: 10)
        let canvas = Canvas(target: target)
        canvas.draw(red, in: Rect(x: 2, y: 1, width: 16, height: 8))
        #expect(near(target.color(x: 2, y: 1), 255, 0, 0) && near(target.color(x: 17, y: 8), 255, 0, 0))
        #expect(target.color(x: 1, y: 1) == .black && target.color(x: 18, y: 8) == .black)
        canvas.clear(.white)
        canvas.multiplyAlpha(0.5)
        canvas.draw(red, in: Rect(x: 0, y: 0, width: 8, height: 4))
        #expect(near(target.color(x: 3, y: 2), 255, 128, 128), "\(target.color(x: 3, y: 2))")
        withExtendedLifetime(keep) {}
    }
}
