extension KioskConfig {
    /// A motion sensor (a PIR module on a GPIO line): the screen sleeps when nobody has moved for
    /// `timeout` seconds and wakes when someone does. Off unless `chip` is set.
    public struct Presence: Equatable, Sendable {
        /// The GPIO chip: a device node ("/dev/gpiochip0") or its name ("gpiochip0"); nil: no sensor.
        public var chip: String? = nil
        /// The line's offset on the chip (the Pi's GPIO number on its main chip).
        public var line: Int = 0
        /// The level the sensor drives while it sees motion.
        public var activeLevel: ActiveLevel = .high
        /// Seconds without motion before the screen blanks.
        public var timeout: Int = 600
        /// Whether motion also wakes the screen while the schedule has it off (at night); off: the
        /// schedule wins and only a touch wakes it.
        public var wakesDuringSchedule: Bool = false
        public init() {}

        /// The device node the chip names.
        public var chipPath: String? {
            guard let chip else { return nil }
            return chip.hasPrefix("/") ? chip : "/dev/" + chip
        }
    }

    public enum ActiveLevel: String, CaseIterable, Sendable { case high, low }
}
