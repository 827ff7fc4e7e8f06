#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a paging scroll view settles after a release: the nearest page, except that a flick
/// (speed over `flickVelocity`) goes on to the next page in its direction even if less than
/// half of it is showing (Flutter's PageView rule). Never more than one page from where the
/// drag started.
public enum PageSnap {
    /// Points per second above which a release counts as a flick. *Inferred*: no source gives
    /// UIKit's number; Flutter uses its velocity tolerance, which is far smaller.
    public static let flickVelocity = 300.0

    public static func targetPage(offset: Double, pageSize: Double, velocity: Double,
                                  startPage: Int, pageCount: Int) -> Int {
        guard pageSize > 0, pageCount > 0 else { return 0 }
        let position = offset / pageSize
        var target: Double
        if velocity > flickVelocity { target = floor(position) + 1 }
        else if velocity < -flickVelocity { target = ceil(position) - 1 }
        else { target = position.rounded() }
        target = min(max(target, Double(startPage - 1)), Double(startPage + 1))
        return Int(min(max(target, 0), Double(pageCount - 1)))
    }

    /// The page a drag from `dragStart` released at `offset` goes to. A drag that caught a snap
    /// on its way to page `heading` counts from that page, as if the snap had arrived: UIKit
    /// aims a flick from the page the view was going to, not from where the finger caught it,
    /// so quick flicks each advance a page and a flick back during a snap returns one page.
    /// Without a heading the drag counts from the page nearest its start.
    public static func targetPage(offset: Double, pageSize: Double, velocity: Double,
                                  dragStart: Double, heading: Int?, pageCount: Int) -> Int {
        guard pageSize > 0, pageCount > 0 else { return 0 }
        guard let heading else {
            let startPage = Int(min(max((dragStart / pageSize).rounded(), -1), Double(pageCount)))
            return targetPage(offset: offset, pageSize: pageSize, velocity: velocity, startPage: startPage, pageCount: pageCount)
        }
        return targetPage(offset: Double(heading) * pageSize + (offset - dragStart), pageSize: pageSize,
                          velocity: velocity, startPage: heading, pageCount: pageCount)
    }
}
