/// A QR code as its square grid of modules (dark or light), without the quiet zone: what the
/// encoder (Imaging's `QRCodeEncoder`, libqrencode) makes and the pairing screens draw.
public struct QRModules: Hashable, Sendable {
    /// Modules per side.
    public let width: Int
    /// Row by row, true for a dark module.
    public let dark: [Bool]
    /// Light modules around the code that scanners need (the standard asks for four).
    public static let quietZone = 4

    public init(width: Int, dark: [Bool]) {
        precondition(width > 0 && dark.count == width * width, "a QR code is square")
        self.width = width
        self.dark = dark
    }

    public func isDark(x: Int, y: Int) -> Bool { dark[y * width + x] }

    /// Modules per side with the quiet zone on every side.
    public var widthWithQuietZone: Int { width + 2 * Self.quietZone }

    /// The code drawn black on white with `moduleSize` pixels per module and the quiet zone
    /// around it: whole pixels per module, so it stays sharp for a phone's camera.
    public func bitmap(moduleSize: Int) -> Bitmap {
        let scale = max(1, moduleSize)
        let side = widthWithQuietZone * scale
        let bitmap = Bitmap(width: side, height: side)
        let white: UInt32 = 0xFFFF_FFFF, black: UInt32 = 0xFF00_0000
        for py in 0..<side {
            let my = py / scale - Self.quietZone
            for px in 0..<side {
                let mx = px / scale - Self.quietZone
                let isDark = mx >= 0 && my >= 0 && mx < width && my < width && isDark(x: mx, y: my)
                bitmap.setPixel(x: px, y: py, isDark ? black : white)
            }
        }
        return bitmap
    }
}
