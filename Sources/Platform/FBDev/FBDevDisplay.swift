import CDRM
import Glibc
import Graphics
import Logging

/// The legacy Linux framebuffer (/dev/fb0) for boards without a working KMS driver: one mapped
/// buffer, no page flip (so it may tear), 32 bpp or 16 bpp RGB565 converted by pixman while
/// copying damaged rectangles, rotated the same way as DRM.
public final class FBDevDisplay: Display {
    public let path: String
    public let layout: FBDevLayout
    public let rotation: Rotation
    public let frameBuffer: Bitmap
    private let fd: Int32
    private let memory: UnsafeMutableRawPointer
    private let mappedLength: Int
    private let copier: ScanoutCopier
    private let deviceWidth: Int
    private let deviceHeight: Int
    private var closed = false

    public init(path: String = "/dev/fb0", rotation: Rotation = .none,
                logger: Logger = Logger(label: "photokiosk.fbdev")) throws(PlatformError) {
        guard access(path, F_OK) == 0 else { throw .fbdev("no framebuffer device \(path)") }
        fd = try openDevice(path, flags: O_RDWR)
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        let r = cdrm_fb_get_info(fd, &variable, &fixed)
        guard r == 0 else {
            Glibc.close(fd)
            throw .failed("FBIOGET_VSCREENINFO \(path)", errno: -r)
        }
        layout = FBDevLayout(bitsPerPixel: Int(variable.bits_per_pixel),
                             redOffset: Int(variable.red.offset), redLength: Int(variable.red.length),
                             greenOffset: Int(variable.green.offset), greenLength: Int(variable.green.length),
                             blueOffset: Int(variable.blue.offset), blueLength: Int(variable.blue.length))
        guard let format = layout.scanoutFormat else {
            Glibc.close(fd)
            throw .fbdev("\(path) uses \(layout.description), which is not supported (need 32 bpp or RGB565)")
        }
        self.path = path
        self.rotation = rotation
        deviceWidth = Int(variable.xres)
        deviceHeight = Int(variable.yres)
        mappedLength = Int(fixed.smem_len)
        guard let mapped = mmap(nil, mappedLength, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            let err = errno
            Glibc.close(fd)
            throw .failed("mmap \(path)", errno: err)
        }
        // The visible page starts at the panning offset.
        let visible = mapped + Int(variable.yoffset) * Int(fixed.line_length)
            + Int(variable.xoffset) * layout.bitsPerPixel / 8
        memory = mapped
        let logical = rotation.logicalSize(deviceWidth: deviceWidth, deviceHeight: deviceHeight)
        frameBuffer = Bitmap(width: logical.width, height: logical.height)
        copier = ScanoutCopier(frameBuffer: frameBuffer, memory: visible, deviceWidth: deviceWidth,
                               deviceHeight: deviceHeight, stride: Int(fixed.line_length), format: format,
                               rotation: rotation)
        logger.info("\(name)")
    }

    deinit { close() }

    public var name: String {
        "fbdev \(path) \(deviceWidth)x\(deviceHeight) \(layout.bitsPerPixel) bpp"
            + (rotation == .none ? "" : " rotated \(rotation)")
    }

    public var size: Size { frameBuffer.size }
    public var isReadyForFrame: Bool { !closed }

    public func present(damage: [PixelRect]) throws {
        guard !closed else { return }
        copier.copy(damage)
    }

    public func close() {
        guard !closed else { return }
        closed = true
        munmap(memory, mappedLength)
        Glibc.close(fd)
    }
}
