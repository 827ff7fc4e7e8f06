import CLinux
import SystemAccess
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Tells when the wall clock (CLOCK_REALTIME) is set: NTP's first sync on a board without a
/// battery clock, `date -s`, an owner fixing the time. A CLOCK_REALTIME timerfd armed far in the
/// future with TFD_TIMER_CANCEL_ON_SET: the kernel makes it readable when the clock is set, and
/// the read fails with ECANCELED (timerfd_create(2)). Gradual NTP slewing does not count; only a
/// step does, which is what moves a schedule's "now".
public final class WallClockSetAlarm {
    /// Readable (poll/epoll) when the clock was set; call `acknowledge()` then.
    public let descriptor: FileDescriptor

    /// Far enough ahead that the timer never simply expires (the year 36812); still a valid
    /// `timespec` for the kernel.
    static let farFuture = Int(1) << 40

    public init() throws(SystemError) {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw SystemError("timerfd_create", errno: SystemError.lastErrno) }
        descriptor = FileDescriptor(rawValue: fd)
        do { try arm() } catch {
            try? descriptor.close()
            throw error
        }
    }

    deinit { try? descriptor.close() }

    /// Reads the descriptor after it became readable. True when the clock was set since the
    /// last call (the alarm is armed again for the next change); false when nothing happened.
    public func acknowledge() throws(SystemError) -> Bool {
        var expirations: UInt64 = 0
        if read(descriptor.rawValue, &expirations, 8) == 8 {
            try arm()   // the far future came (a clock set beyond it): counts as a change too
            return true
        }
        switch Glibc.errno {
        case EAGAIN, EINTR: return false
        case ECANCELED:
            try arm()
            return true
        default: throw SystemError("read(timerfd)", errno: SystemError.lastErrno)
        }
    }

    private func arm() throws(SystemError) {
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Self.farFuture, tv_nsec: 0)
        let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
        guard timerfd_settime(descriptor.rawValue, flags, &spec, nil) == 0 else {
            throw SystemError("timerfd_settime(CANCEL_ON_SET)", errno: SystemError.lastErrno)
        }
    }
}
