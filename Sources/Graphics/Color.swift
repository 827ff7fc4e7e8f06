// A colour with straight (non-premultiplied) alpha, 8 bits per channel.

public struct Color: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From 0xRRGGBB.
    public init(rgb: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF), alpha: alpha)
    }

    /// The same colour with its alpha multiplied by `factor` (0...1).
    public func withAlpha(_ factor: Double) -> Color {
        var c = self
        c.alpha = UInt8((Double(alpha) * min(1, max(0, factor))).rounded())
        return c
    }

    /// The 32-bit XRGB8888 / ARGB8888 pixel value (straight alpha in the top byte).
    public var pixel: UInt32 {
        UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// Reads an XRGB8888 pixel; the X byte is ignored.
    public init(xrgb pixel: UInt32) {
        self.init(red: UInt8((pixel >> 16) & 0xFF), green: UInt8((pixel >> 8) & 0xFF), blue: UInt8(pixel & 0xFF))
    }

    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let gray = Color(rgb: 0x808080)
    public static let darkGray = Color(rgb: 0x202020)
    public static let red = Color(rgb: 0xFF0000)
    public static let green = Color(rgb: 0x00FF00)
    public static let blue = Color(rgb: 0x0000FF)
}
