import Imaging

/// What the slideshow will show next, worked out on a copy of its state: the shuffle is seeded,
/// so ticking a copy at its deadlines gives the same order the real one will follow.
extension SlideshowController {
    /// The next two photos after the current one, so the next slide and the photo it may pair
    /// with are prepared ahead.
    func upcoming() -> (next: RawPath?, afterNext: RawPath?) {
        var ahead = self
        var found: [RawPath] = []
        var last = ahead.sequencer.current
        for _ in 0..<2 {
            guard let deadline = ahead.nextDeadline, ahead.tick(at: deadline),
                  let candidate = ahead.sequencer.current, candidate != last else { break }
            found.append(candidate)
            last = candidate
        }
        return (found.first, found.count > 1 ? found[1] : nil)
    }

    /// A single slide always can show; a pair while its second photo is still the one that comes
    /// next (the library may have changed since it was composed).
    func canStillShow(_ slide: ComposedSlide) -> Bool {
        guard slide.photos.count > 1 else { return true }
        var ahead = self
        return ahead.showPaired(with: slide.photos[1])
    }
}
