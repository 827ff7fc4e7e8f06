import Graphics

/// Four-component JPEGs: libjpeg hands out C M Y K bytes; the screen wants B G R X.
enum CMYKConversion {
    /// Converts in place (both are 4 bytes per pixel). Adobe applications store CMYK inverted
    /// (0 = full ink) and mark the file with an APP14 marker; without that marker the values are
    /// taken as plain ink amounts.
    static func convertInPlace(_ bitmap: Bitmap, inverted: Bool) {
        for y in 0..<bitmap.height {
            let p = bitmap.row(y).assumingMemoryBound(to: UInt8.self)
            for x in 0..<bitmap.width {
                let o = x * 4
                var c = UInt32(p[o]), m = UInt32(p[o + 1]), ye = UInt32(p[o + 2]), k = UInt32(p[o + 3])
                if !inverted { c = 255 - c; m = 255 - m; ye = 255 - ye; k = 255 - k }
                // With inverted values, each channel is (1 − ink)·(1 − black).
                p[o] = UInt8((ye * k + 127) / 255)
                p[o + 1] = UInt8((m * k + 127) / 255)
                p[o + 2] = UInt8((c * k + 127) / 255)
                p[o + 3] = 0xFF
            }
        }
    }
}
