/// A motion sensor the app listens to: it attaches to the loop and says when it starts and stops
/// seeing motion. `GPIOMotionLine` is the real one (a PIR module on a GPIO line); tests drive
/// their own, so the app never sees a descriptor.
public protocol MotionSensor: AnyObject {
    /// What the sensor is, for the log ("gpiochip0 line 17").
    var sensorName: String { get }
    /// True while it sees motion now.
    var isActive: Bool { get }
    /// `onChange(active)` on the loop thread whenever the sensor starts or stops seeing motion.
    func attach(to loop: any EventLoopRegistry, onChange: @escaping (Bool) -> Void) throws(PlatformError)
    func detach(from loop: any EventLoopRegistry)
}
