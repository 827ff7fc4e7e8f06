import CDRM
import Glibc

/// A CPU-mapped XRGB8888 scanout buffer with a framebuffer id. Writes go to (often uncached)
/// device memory, so only damaged rectangles are copied here.
final class DumbBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let framebufferID: UInt32
    let memory: UnsafeMutableRawPointer
    private let fd: Int32
    private let handle: UInt32
    private let size: Int

    init(fd: Int32, width: Int, height: Int) throws(PlatformError) {
        self.fd = fd
        self.width = width
        self.height = height
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        guard drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) == 0 else {
            throw .failed("DRM_IOCTL_MODE_CREATE_DUMB \(width)x\(height)", errno: errno)
        }
        self.handle = handle
        stride = Int(pitch)
        self.size = Int(size)
        var fb: UInt32 = 0
        var handles: (UInt32, UInt32, UInt32, UInt32) = (handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (pitch, 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        let added = withUnsafeMutablePointer(to: &handles) { h in
            withUnsafeMutablePointer(to: &pitches) { p in
                withUnsafeMutablePointer(to: &offsets) { o in
                    h.withMemoryRebound(to: UInt32.self, capacity: 4) { h in
                        p.withMemoryRebound(to: UInt32.self, capacity: 4) { p in
                            o.withMemoryRebound(to: UInt32.self, capacity: 4) { o in
                                drmModeAddFB2(fd, UInt32(width), UInt32(height), CDRM_FORMAT_XRGB8888, h, p, o, &fb, 0)
                            }
                        }
                    }
                }
            }
        }
        if added != 0 {
            // Older drivers only know the depth/bpp form.
            guard drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &fb) == 0 else {
                let err = errno
                _ = drmModeDestroyDumbBuffer(fd, handle)
                throw .failed("drmModeAddFB", errno: err)
            }
        }
        framebufferID = fb
        var offset: UInt64 = 0
        guard drmModeMapDumbBuffer(fd, handle, &offset) == 0 else {
            let err = errno
            _ = drmModeRmFB(fd, fb)
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw .failed("DRM_IOCTL_MODE_MAP_DUMB", errno: err)
        }
        let mapped = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let mapped, mapped != MAP_FAILED else {
            let err = errno
            _ = drmModeRmFB(fd, fb)
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw .failed("mmap dumb buffer", errno: err)
        }
        memory = mapped
    }

    deinit {
        munmap(memory, size)
        _ = drmModeRmFB(fd, framebufferID)
        _ = drmModeDestroyDumbBuffer(fd, handle)
    }
}
