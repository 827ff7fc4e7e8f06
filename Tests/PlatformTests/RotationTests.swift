import Graphics
import Testing
@testable import Platform

@Suite("Rotation of rectangles, points and pixels")
struct RotationTests {
    // A 6x4 logical screen: asymmetric, so a wrong axis shows.
    let lw = 6, lh = 4

    /// Where logical pixel (x, y) lands on the device, by turning the picture clockwise.
    func devicePixel(_ x: Int, _ y: Int, _ r: Rotation) -> (Int, Int) {
        switch r {
        case .none: return (x, y)
        case .clockwise90: return (lh - 1 - y, x)
        case .upsideDown: return (lw - 1 - x, lh - 1 - y)
        case .clockwise270: return (y, lw - 1 - x)
        }
    }

    @Test(arguments: Rotation.allCases)
    func rectMapsToTheDevicePixelsOfItsPixels(rotation: Rotation) {
        let r = PixelRect(x: 1, y: 0, width: 3, height: 2)
        let d = rotation.deviceRect(r, logicalWidth: lw, logicalHeight: lh)
        var expected: Set<[Int]> = []
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { let p = devicePixel(x, y, rotation); expected.insert([p.0, p.1]) } }
        var got: Set<[Int]> = []
        for y in d.y..<d.maxY { for x in d.x..<d.maxX { got.insert([x, y]) } }
        #expect(got == expected)
    }

    @Test(arguments: Rotation.allCases)
    func touchPointMapsBackToTheLogicalPixel(rotation: Rotation) {
        let (dw, dh) = rotation.swapsAxes ? (lh, lw) : (lw, lh)
        for y in 0..<lh {
            for x in 0..<lw {
                let (dx, dy) = devicePixel(x, y, rotation)
                let p = rotation.logicalPoint(Point(x: Double(dx) + 0.5, y: Double(dy) + 0.5),
                                              deviceWidth: Double(dw), deviceHeight: Double(dh))
                #expect(p == Point(x: Double(x) + 0.5, y: Double(y) + 0.5), "\(rotation) (\(x),\(y))")
            }
        }
    }

    @Test func logicalSizeSwapsForQuarterTurns() {
        #expect(Rotation.clockwise90.logicalSize(deviceWidth: 1280, deviceHeight: 800) == (800, 1280))
        #expect(Rotation.upsideDown.logicalSize(deviceWidth: 1280, deviceHeight: 800) == (1280, 800))
        #expect(Rotation(degrees: 450) == .clockwise90)
        #expect(Rotation(degrees: -90) == .clockwise270)
        #expect(Rotation(degrees: 45) == nil)
    }

    @Test func screenMappingFromLogicalSize() {
        let m = ScreenMapping(logicalSize: Size(width: 800, height: 1280), rotation: .clockwise90)
        #expect(m.deviceWidth == 1280 && m.deviceHeight == 800)
        // The panel's top-left corner is the logical bottom-left when turned clockwise.
        #expect(m.logical(Point(x: 0, y: 0)) == Point(x: 0, y: 1280))
        #expect(m.clamped(Point(x: -5, y: 5000)) == Point(x: 0, y: 1279))
    }

    @Test(arguments: Rotation.allCases)
    func copierRotatesEveryPixelAndTouchesOnlyTheDamage(rotation: Rotation) {
        let frame = Bitmap(width: lw, height: lh)
        for y in 0..<lh { for x in 0..<lw { frame.setPixel(x: x, y: y, UInt32(0x10000 * (y + 1) + x + 1)) } }
        let (dw, dh) = rotation.swapsAxes ? (lh, lw) : (lw, lh)
        let device = Bitmap(width: dw, height: dh)
        for y in 0..<dh { for x in 0..<dw { device.setPixel(x: x, y: y, 0xDEAD) } }
        let copier = ScanoutCopier(frameBuffer: frame, memory: device.pixels, deviceWidth: dw, deviceHeight: dh,
                                   stride: device.stride, format: .xrgb8888, rotation: rotation)
        let damage = PixelRect(x: 1, y: 1, width: 4, height: 2)
        let landed = copier.copy([damage])
        #expect(landed == [rotation.deviceRect(damage, logicalWidth: lw, logicalHeight: lh)])
        for y in 0..<lh {
            for x in 0..<lw {
                let (dx, dy) = devicePixel(x, y, rotation)
                let inside = x >= 1 && x < 5 && y >= 1 && y < 3
                #expect(device.pixel(x: dx, y: dy) & 0xFFFFFF == (inside ? frame.pixel(x: x, y: y) : 0xDEAD),
                        "\(rotation) logical (\(x),\(y))")
            }
        }
        copier.copy([frame.bounds])
        for y in 0..<lh { for x in 0..<lw {
            let (dx, dy) = devicePixel(x, y, rotation)
            #expect(device.pixel(x: dx, y: dy) & 0xFFFFFF == frame.pixel(x: x, y: y))
        } }
    }
}
