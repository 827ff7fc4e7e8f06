import CPixman

// Anti-aliased shapes (round page dots, rounded buttons and labels, their soft shadows), drawn
// by pixman itself: the outline is cut into horizontal trapezoids that
// pixman_composite_trapezoids rasterises into an 8-bit coverage mask (17×15 samples per pixel)
// and composites in one operation. No vector library needed for these convex shapes; a
// triangle fan (pixman_composite_triangles) was measured 5× slower, trapezoids as fast as cairo
// (ARCHITECTURE.md, "Dependencies and why").

extension Canvas {
    /// Fills `rect` with round corners of `radius` (clamped to half the short side), blending.
    public func fillRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        fill(RoundedRectOutline(rect: toDevice(rect), radius: radius), color: color)
    }

    /// Fills the ellipse inscribed in `rect` (a circle when square).
    public func fillEllipse(in rect: Rect, color: Color) {
        fill(RoundedRectOutline(rect: toDevice(rect), radius: min(rect.width, rect.height) / 2), color: color)
    }

    /// A soft shadow under a rounded shape: `layers` rounded rectangles each `spread`/`layers`
    /// wider than the one before, their alphas adding up to `color`'s near the shape.
    public func fillShadow(of rect: Rect, radius: Double, offset: Point, spread: Double, color: Color, layers: Int = 4) {
        guard layers > 0, color.alpha > 0 else { return }
        let base = rect.offsetBy(dx: offset.x, dy: offset.y)
        let layerColor = Color(red: color.red, green: color.green, blue: color.blue,
                               alpha: UInt8(max(1, Int(color.alpha) / layers)))
        for i in 0..<layers {
            let grow = spread * Double(layers - i) / Double(layers)
            fillRoundedRect(base.insetBy(dx: -grow, dy: -grow), radius: radius + grow, color: layerColor)
        }
    }

    private func fill(_ outline: RoundedRectOutline, color: Color) {
        let area = PixelRect(covering: outline.rect).intersection(clipRect)
        guard !area.isEmpty, outline.rect.width > 0, outline.rect.height > 0 else { return }
        let c = color.withAlpha(alpha)
        guard c.alpha > 0 else { return }
        var pc = c.pixmanColor
        guard let solid = pixman_image_create_solid_fill(&pc) else { return }
        defer { pixman_image_unref(solid) }
        var traps = outline.slabs.map { slab in
            pixman_trapezoid_t(top: fixed(slab.top), bottom: fixed(slab.bottom),
                               left: pixman_line_fixed_t(p1: pixmanPoint(slab.left.0), p2: pixmanPoint(slab.left.1)),
                               right: pixman_line_fixed_t(p1: pixmanPoint(slab.right.0), p2: pixmanPoint(slab.right.1)))
        }
        guard !traps.isEmpty else { return }
        // The canvas clip, as the destination's clip region for this one operation.
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height))
        defer { pixman_region32_fini(&region) }
        pixman_image_set_clip_region32(destination, &region)
        defer { pixman_image_set_clip_region32(destination, nil) }
        pixman_composite_trapezoids(PIXMAN_OP_OVER, solid, destination, PIXMAN_a8, 0, 0, 0, 0,
                                    Int32(traps.count), &traps)
    }

    private func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }

    private func pixmanPoint(_ p: Point) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: fixed(p.x), y: fixed(p.y))
    }
}
