import CLazyLibrary
import Glibc
import Testing

/// clazy_load: the dlopen-on-first-use step behind the CHEIF, CMQTT and CHTTP shims.
@Suite("Libraries loaded on first use")
struct LazyLibraryTests {
    /// Loads `prefix + name` for each name from `library`: the addresses, or the message.
    private func load(_ library: String, prefix: String, _ names: [String]) -> Result<[UnsafeMutableRawPointer], LoadFailure> {
        var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
        let cNames = names.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        var error = [CChar](repeating: 0, count: 256)
        let loaded = addresses.withUnsafeMutableBufferPointer { buffer in
            let slots: [UnsafeMutablePointer<UnsafeMutableRawPointer?>?] = (0..<names.count).map { buffer.baseAddress! + $0 }
            let constNames: [UnsafePointer<CChar>?] = cNames.map { UnsafePointer($0) }
            return clazy_load(library, prefix, constNames, slots, names.count, &error, error.count)
        }
        guard loaded else {
            return .failure(LoadFailure(message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(addresses.map { $0! })
    }

    struct LoadFailure: Error { let message: String }

    @Test("the functions found are the library's own, callable")
    func loadsFunctions() throws {
        let addresses = try load("libm.so.6", prefix: "", ["sqrt", "fabs"]).get()
        let sqrt = unsafeBitCast(addresses[0], to: (@convention(c) (Double) -> Double).self)
        let fabs = unsafeBitCast(addresses[1], to: (@convention(c) (Double) -> Double).self)
        #expect(sqrt(16) == 4)
        #expect(fabs(-2.5) == 2.5)
    }

    @Test("a library that is not installed: the message names it")
    func missingLibrary() {
        guard case .failure(let failure) = load("libphotokiosk-absent.so.9", prefix: "absent_", ["open"]) else {
            Issue.record("an absent library loaded")
            return
        }
        #expect(failure.message.contains("libphotokiosk-absent.so.9"))
    }

    @Test("a function the library lacks: the message names the library and the function")
    func missingFunction() {
        guard case .failure(let failure) = load("libm.so.6", prefix: "photokiosk_", ["nothing"]) else {
            Issue.record("a function libm does not have was found")
            return
        }
        #expect(failure.message == "libm.so.6 has no function photokiosk_nothing")
    }
}
