import Glibc
import Testing
@testable import Platform

/// The GPIO wrapper's failures, each a message fit for the one log line the kiosk writes before
/// working on without its sensor. (The line itself, edges included, is tested in the VM against
/// gpio-sim: this host's kernel has neither gpio-sim nor configfs.)
@Suite struct GPIOMotionLineTests {
    func failure(_ path: String) -> PlatformError? {
        do {
            _ = try GPIOMotionLine(chipPath: path, offset: 17, activeLow: false)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingChipIsNamedWithTheReason() throws {
        let error = try #require(failure("/dev/gpiochip-not-there"))
        guard case let .system(system) = error else {
            Issue.record("expected a system error, got \(error)")
            return
        }
        #expect(system.errno.rawValue == ENOENT)
        #expect(error.description.contains("/dev/gpiochip-not-there"))
    }

    @Test func aDeviceThatIsNoGPIOChipIsRefusedByTheKernel() throws {
        let error = try #require(failure("/dev/null"))
        guard case let .system(system) = error else {
            Issue.record("expected a system error, got \(error)")
            return
        }
        #expect(system.operation == "GPIO_GET_CHIPINFO_IOCTL")
        #expect(system.errno.rawValue == ENOTTY)
    }

}
