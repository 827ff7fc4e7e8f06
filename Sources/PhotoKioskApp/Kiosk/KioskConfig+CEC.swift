extension KioskConfig {
    /// The TV's power over HDMI-CEC: standby when the screen blanks, on (and this frame the
    /// input shown) when it wakes. Off unless `enabled`: a monitor without CEC needs nothing.
    public struct CEC: Equatable, Sendable {
        public var enabled: Bool = false
        /// The adapter ("/dev/cec1" or "cec1"); nil: the one of the HDMI output drawn on (the
        /// kernel links them, 5.10 and later), else the only one there is.
        public var device: String? = nil
        /// Standby to the TV when the screen blanks.
        public var standby: Bool = true
        /// What wakes the TV with the screen: <Image View On>, <Text View On>, or nothing (then
        /// only <Active Source> is sent, which switches a TV that is on to this input).
        public var powerOn: PowerOn = .image
        public init() {}

        /// The device node the setting names.
        public var devicePath: String? {
            guard let device else { return nil }
            return device.hasPrefix("/") ? device : "/dev/" + device
        }
    }

    public enum PowerOn: String, CaseIterable, Sendable { case image, text, none }
}
