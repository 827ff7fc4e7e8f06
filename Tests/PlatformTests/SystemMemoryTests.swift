import Glibc
import Testing
@testable import Platform

@Suite struct SystemMemoryTests {
    @Test func readsMemTotalInBytes() {
        #expect(SystemMemory.memTotal(inLine: "MemTotal:       24684092 kB\n") == 24_684_092 * 1024)
        #expect(SystemMemory.memTotal(inLine: "MemTotal: 512000 kB") == 512_000 * 1024)
        #expect(SystemMemory.memTotal(inLine: "MemFree:        1000 kB\n") == nil)
        #expect(SystemMemory.memTotal(inLine: "MemTotal: many kB\n") == nil)
        #expect(SystemMemory.memTotal(inLine: "MemTotal: 512 MB\n") == nil)
    }

    @Test func readsTheFileAndSaysWhenItCannot() throws {
        var template = Array("/tmp/photokiosk-meminfo-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        #expect(fd >= 0)
        let path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        defer { unlink(path) }
        let text = "MemFree:  100 kB\nMemTotal:  262144 kB\nBuffers: 1 kB\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        #expect(SystemMemory.totalBytes(meminfo: path) == 256 << 20)
        #expect(SystemMemory.totalBytes(meminfo: path + ".missing") == nil)
        // This machine's own.
        #expect((SystemMemory.totalBytes() ?? 0) > 0)
    }
}
