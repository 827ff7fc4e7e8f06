import Imaging
import PhotoKioskApp
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

func symlink(_ target: String, at link: RawPath) {
    let result = link.withCString { linkPath in symlink(target, linkPath) }
    precondition(result == 0, "symlink failed")
}

func rename(_ from: RawPath, _ to: RawPath) {
    let result = from.withCString { a in to.withCString { b in rename(a, b) } }
    precondition(result == 0, "rename failed: \(errno)")
}

extension PhotoList {
    var paths: [RawPath] { photos.map(\.path) }
}
