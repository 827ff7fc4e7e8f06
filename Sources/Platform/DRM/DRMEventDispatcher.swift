import CDRM

/// Reads DRM events (page-flip completions) from a DRM fd with drmHandleEvent and calls
/// `onPageFlip` with the vblank sequence and time. Its address is the page flip's user_data.
final class DRMEventDispatcher {
    var onPageFlip: ((_ sequence: UInt32, _ time: Double) -> Void)?

    /// What to pass as user_data to drmModePageFlip so the completion finds this object.
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Handles the events readable on `fd`; returns drmHandleEvent's result (0 or -1).
    @discardableResult
    func dispatch(fd: Int32) -> Int32 {
        var context = drmEventContext()
        context.version = Int32(CDRM_EVENT_CONTEXT_VERSION)
        context.page_flip_handler = { _, sequence, seconds, microseconds, userData in
            guard let userData else { return }
            let dispatcher = Unmanaged<DRMEventDispatcher>.fromOpaque(userData).takeUnretainedValue()
            dispatcher.onPageFlip?(sequence, Double(seconds) + Double(microseconds) / 1e6)
        }
        return drmHandleEvent(fd, &context)
    }
}
