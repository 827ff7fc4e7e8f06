import Glibc

/// The name of a directory entry from readdir. Read up to its NUL only: glibc sizes each entry
/// to its name, so copying the whole 256-byte `d_name` reads past the buffer (AddressSanitizer).
func direntName(_ entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return Array(UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
}
