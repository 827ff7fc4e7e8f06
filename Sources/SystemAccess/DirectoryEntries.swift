import Glibc

/// The name of a directory entry from readdir, without copying: valid until the next readdir or
/// closedir on its stream. Read up to its NUL only: glibc sizes each entry to its name, so the
/// whole 256-byte `d_name` reaches past the buffer (AddressSanitizer).
public func direntNameBytes(_ entry: UnsafePointer<dirent>) -> UnsafeRawBufferPointer {
    let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    return UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
}

/// The name of a directory entry from readdir, copied out of the stream's buffer.
public func direntName(_ entry: UnsafePointer<dirent>) -> [UInt8] {
    Array(direntNameBytes(entry))
}

/// The names in the directory at `path`, in readdir order, without "." and ".."; nil when it
/// cannot be opened.
public func entryNames(inDirectory path: UnsafePointer<CChar>) -> [[UInt8]]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [[UInt8]] = []
    while let entry = readdir(dir) {
        let name = direntName(entry)
        if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
    }
    return names
}
