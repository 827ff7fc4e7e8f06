import CInput
import CLibInput
import Graphics

/// The physical facts of an input device a touch recording or a calibration needs.
enum InputDeviceDescription {
    /// Width and height in millimetres; nil when the device does not know (no resolution).
    static func size(_ device: OpaquePointer) -> Size? {
        var width = 0.0, height = 0.0
        guard libinput_device_get_size(device, &width, &height) == 0, width > 0, height > 0 else { return nil }
        return Size(width: width, height: height)
    }

    /// The calibration matrix libinput applies now (identity when none is set or supported).
    static func calibration(_ device: OpaquePointer) -> [Double] {
        guard libinput_device_config_calibration_has_matrix(device) != 0 else { return [1, 0, 0, 0, 1, 0] }
        var matrix = [Float](repeating: 0, count: 6)
        _ = libinput_device_config_calibration_get_matrix(device, &matrix)
        return matrix.map(Double.init)
    }

    /// A touch axis of the device open on `fd`: the multitouch position axis, else the single
    /// touch one (x: ABS_MT_POSITION_X 0x35 / ABS_X 0; y: ABS_MT_POSITION_Y 0x36 / ABS_Y 1).
    static func axis(fd: Int32, vertical: Bool) -> AxisRange? {
        for code: UInt32 in vertical ? [0x36, 0x01] : [0x35, 0x00] {
            var minimum: Int32 = 0, maximum: Int32 = 0, resolution: Int32 = 0
            if cinput_abs_info(fd, code, &minimum, &maximum, &resolution) == 0, maximum > minimum {
                return AxisRange(minimum: Int(minimum), maximum: Int(maximum), resolution: Int(resolution))
            }
        }
        return nil
    }
}
