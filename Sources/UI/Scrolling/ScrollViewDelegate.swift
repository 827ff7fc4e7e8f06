/// What a scroll view tells its owner; every method has an empty default.
public protocol ScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool)
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    func scrollViewWillBeginZooming(_ scrollView: ScrollView)
    func scrollViewDidZoom(_ scrollView: ScrollView)
    func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate: Bool) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, atScale scale: Double) {}
}
