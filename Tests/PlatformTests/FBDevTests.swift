import Graphics
import Testing
@testable import Platform

@Suite("fbdev pixel formats")
struct FBDevTests {
    @Test func layoutsMapToScanoutFormats() {
        func layout(_ bpp: Int, _ r: Int, _ g: Int, _ b: Int, green: Int = 8) -> FBDevLayout {
            FBDevLayout(bitsPerPixel: bpp, redOffset: r, redLength: green == 6 ? 5 : 8, greenOffset: g,
                        greenLength: green, blueOffset: b, blueLength: green == 6 ? 5 : 8)
        }
        #expect(layout(32, 16, 8, 0).scanoutFormat == .xrgb8888)
        #expect(layout(32, 0, 8, 16).scanoutFormat == .xbgr8888)
        #expect(layout(16, 11, 5, 0, green: 6).scanoutFormat == .rgb565)
        #expect(layout(16, 0, 5, 11, green: 6).scanoutFormat == .bgr565)
        #expect(layout(16, 10, 5, 0, green: 5).scanoutFormat == nil)   // RGB555
        #expect(layout(24, 16, 8, 0).scanoutFormat == nil)
        #expect(layout(8, 0, 0, 0).scanoutFormat == nil)
    }

    @Test func rgb565KeepsTheTopBitsOfEachChannel() {
        #expect(rgb565(fromXRGB: 0xFF0000) == 0xF800)
        #expect(rgb565(fromXRGB: 0x00FF00) == 0x07E0)
        #expect(rgb565(fromXRGB: 0x0000FF) == 0x001F)
        #expect(rgb565(fromXRGB: 0xFFFFFF) == 0xFFFF)
        #expect(rgb565(fromXRGB: 0x808080) == 0x8410)
        #expect(rgb565(fromXRGB: 0xFF070307) == 0x0000)   // X byte ignored, low bits dropped
    }

    @Test(arguments: [ScanoutFormat.rgb565, .bgr565])
    func copierConvertsToSixteenBits(format: ScanoutFormat) {
        let colors: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF, 0x808080, 0x123456]
        let frame = Bitmap(width: colors.count, height: 1)
        for (x, c) in colors.enumerated() { frame.setPixel(x: x, y: 0, c) }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 4)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        let copier = ScanoutCopier(frameBuffer: frame, memory: memory, deviceWidth: colors.count, deviceHeight: 1,
                                   stride: 16, format: format, rotation: .none)
        copier.copy([frame.bounds])
        for (x, c) in colors.enumerated() {
            let swapped = format == .bgr565 ? (c & 0xFF) << 16 | (c & 0xFF00) | (c >> 16) & 0xFF : c
            #expect(memory.load(fromByteOffset: x * 2, as: UInt16.self) == rgb565(fromXRGB: swapped), "colour \(x)")
        }
    }

    @Test func missingFramebufferSaysSo() {
        #expect(throws: PlatformError.fbdev("no framebuffer device /nonexistent/fb7")) {
            try FBDevDisplay(path: "/nonexistent/fb7")
        }
    }
}
