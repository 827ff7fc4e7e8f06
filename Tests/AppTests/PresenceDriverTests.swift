import Graphics
import Platform
import Testing
@testable import PhotoKioskApp

/// A motion sensor in the whole app on a headless screen, in real time through the event loop:
/// nobody there blanks the screen (its recorded power) after the timeout counted from the start,
/// motion wakes it, a sensor that sees motion as it is attached keeps it on.
@Suite struct PresenceDriverTests {
    /// Motion as the test says, handed to the app as `GPIOMotionLine` hands the line's edges.
    final class ScriptedMotionSensor: MotionSensor {
        let sensorName = "scripted sensor"
        var isActive: Bool
        var onChange: ((Bool) -> Void)?
        init(active: Bool = false) { isActive = active }
        func attach(to loop: any EventLoopRegistry, onChange: @escaping (Bool) -> Void) throws(PlatformError) {
            self.onChange = onChange
        }
        func detach(from loop: any EventLoopRegistry) { onChange = nil }
        func set(_ active: Bool) {
            isActive = active
            onChange?(active)
        }
    }

    let life = KioskSessionDriverTests()

    func presence(timeout: Int) -> KioskConfig.Presence {
        var p = KioskConfig.Presence()
        p.chip = "scripted"
        p.timeout = timeout   // below the file's minimum of 5 s, to keep the test short
        return p
    }

    func start(sensor: ScriptedMotionSensor, timeout: Int = 1) throws -> (KioskApp, HeadlessDisplay) {
        let folder = try life.makeFolder(photoCount: 2)
        let (app, display) = try life.makeApp(life.config(idle: 600), folder: folder)
        app.startKioskSession(resume: nil, seed: 1, localTime: { LocalDateTime(year: 2026, month: 11, day: 23, hour: 12) })
        try app.attachMotionSensor(sensor, settings: presence(timeout: timeout))
        return (app, display)
    }

    @Test func anEmptyRoomGoesDarkAndMotionWakesIt() throws {
        let sensor = ScriptedMotionSensor()
        let (app, display) = try start(sensor: sensor)
        #expect(display.isScreenOn)
        #expect(app.status.motion == false)
        let started = app.host.loop.now
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 10), "dark without any motion")
        let dark = app.host.loop.now - started
        #expect(dark >= 0.95 && dark < 3, "after the timeout from the start: \(dark) s")
        #expect(app.status.screen == .blank)

        sensor.set(true)
        #expect(display.isScreenOn, "motion wakes the screen at once")
        #expect(app.status.motion == true)
        // While the sensor sees motion the screen stays on past the timeout.
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 1.5) == false)
        sensor.set(false)
        let still = app.host.loop.now
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 10))
        #expect(app.host.loop.now - still >= 0.95, "the timeout counts from the end of the motion")
        #expect(display.powerChanges == 3)
    }

    @Test func aSensorThatSeesMotionAtTheStartKeepsTheScreenOn() throws {
        let sensor = ScriptedMotionSensor(active: true)
        let (app, display) = try start(sensor: sensor)
        #expect(app.status.motion == true)
        #expect(try app.host.run(until: { !display.isScreenOn }, timeout: 1.5) == false)
        #expect(display.isScreenOn)
    }
}
