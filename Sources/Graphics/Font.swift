import CFreeType

/// Errors loading or using a font.
public struct FontError: Error, CustomStringConvertible {
    public let description: String
}

/// A TrueType face at one pixel size, rendered with FreeType into cached A8 glyph masks.
///
/// Used by the thread that draws; not thread-safe (FreeType faces are not).
public final class Font {
    /// Where `Font.standard` looks, in order. fonts-dejavu-core installs the first.
    public static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    ]
    public static let boldSearchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    ]

    public let path: String
    public let pixelSize: Int
    private var library: FT_Library?
    private var face: FT_Face?
    private var glyphs: [Character: Glyph] = [:]

    struct Glyph {
        let mask: Bitmap?      // nil for blank glyphs (space)
        let left: Int          // bearing from the pen to the mask's left edge
        let top: Int           // bearing from the baseline up to the mask's top edge
        let advance: Double
    }

    /// Line metrics in pixels.
    public private(set) var ascender: Double = 0
    public private(set) var descender: Double = 0
    public var lineHeight: Double { ascender - descender }

    public init(path: String, pixelSize: Int) throws {
        self.path = path
        self.pixelSize = max(1, pixelSize)
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { throw FontError(description: "FreeType failed to start") }
        library = lib
        var f: FT_Face?
        let err = FT_New_Face(lib, path, 0, &f)
        guard err == 0, let f else {
            FT_Done_FreeType(lib)
            library = nil
            throw FontError(description: "cannot load font \(path) (FreeType error \(err)); install fonts-dejavu-core")
        }
        face = f
        FT_Set_Pixel_Sizes(f, 0, FT_UInt(self.pixelSize))
        let metrics = f.pointee.size.pointee.metrics
        ascender = Double(metrics.ascender) / 64
        descender = Double(metrics.descender) / 64
    }

    /// DejaVu Sans (or Bold) at `pixelSize`, from the usual system locations.
    public static func standard(pixelSize: Int, bold: Bool = false) throws -> Font {
        for path in bold ? boldSearchPaths : searchPaths {
            if let font = try? Font(path: path, pixelSize: pixelSize) { return font }
        }
        throw FontError(description: "no DejaVu Sans font found in \((bold ? boldSearchPaths : searchPaths).joined(separator: ", ")); install fonts-dejavu-core")
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    func glyph(for ch: Character) -> Glyph {
        if let g = glyphs[ch] { return g }
        let g = render(ch)
        glyphs[ch] = g
        return g
    }

    private func render(_ ch: Character) -> Glyph {
        guard let face, let scalar = ch.unicodeScalars.first else { return Glyph(mask: nil, left: 0, top: 0, advance: 0) }
        var index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        if index == 0 { index = FT_Get_Char_Index(face, FT_ULong(UInt32(("?" as Unicode.Scalar).value))) }
        guard FT_Load_Glyph(face, index, Int32(FT_LOAD_DEFAULT)) == 0,
              FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0,
              let slot = face.pointee.glyph else {
            return Glyph(mask: nil, left: 0, top: 0, advance: Double(pixelSize) / 2)
        }
        let bm = slot.pointee.bitmap
        let advance = Double(slot.pointee.advance.x) / 64
        let w = Int(bm.width), h = Int(bm.rows)
        guard w > 0, h > 0, let buffer = bm.buffer else {
            return Glyph(mask: nil, left: 0, top: 0, advance: advance)
        }
        let mask = Bitmap(width: w, height: h, format: .a8)
        let pitch = Int(bm.pitch)
        for y in 0..<h {
            mask.row(y).copyMemory(from: buffer + y * pitch, byteCount: w)
        }
        return Glyph(mask: mask, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), advance: advance)
    }

    /// Width of `text` in pixels when drawn on one line.
    public func width(of text: String) -> Double {
        text.reduce(0) { $0 + glyph(for: $1).advance }
    }

    /// `text` shortened with "…" so it fits in `maxWidth`.
    public func truncated(_ text: String, toFit maxWidth: Double) -> String {
        if width(of: text) <= maxWidth { return text }
        let ellipsis = "…"
        var result = ""
        var w = width(of: ellipsis)
        for ch in text {
            let a = glyph(for: ch).advance
            if w + a > maxWidth { break }
            result.append(ch)
            w += a
        }
        return result + ellipsis
    }
}

extension Canvas {
    /// Draws one line of text with its baseline starting at `origin` (current coordinates).
    /// Returns the advance width.
    @discardableResult
    public func drawText(_ text: String, at origin: Point, font: Font, color: Color) -> Double {
        var penX = origin.x
        let baseline = origin.y.rounded()
        for ch in text {
            let g = font.glyph(for: ch)
            if let mask = g.mask {
                fill(mask: mask, at: Point(x: (penX + Double(g.left)).rounded(), y: baseline - Double(g.top)), color: color)
            }
            penX += g.advance
        }
        return penX - origin.x
    }

    /// Draws text centred in `rect` (vertically by the font's line box).
    public func drawText(_ text: String, centeredIn rect: Rect, font: Font, color: Color) {
        let shown = font.truncated(text, toFit: rect.width)
        let w = font.width(of: shown)
        let baseline = rect.midY + (font.ascender + font.descender) / 2
        drawText(shown, at: Point(x: rect.midX - w / 2, y: baseline), font: font, color: color)
    }
}
