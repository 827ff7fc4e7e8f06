import Imaging
/// The screens a person can be on, as far as the slideshow and resume-after-restart care:
/// where to go back to when a touch stops the slideshow, and where to reopen after a restart.
public enum KioskScreen: Equatable, Sendable {
    /// The thumbnail grid, scrolled down by `scrollOffset` points.
    case grid(scrollOffset: Double)
    /// An album (a folder) by its index in the library.
    case album(index: Int)
    /// One photo full screen (the album open at it).
    case photo(path: RawPath)
}
