import FuzzDriver

/// A target that fails on purpose, for `run.sh --self-test` only: it proves that a crash, a hang
/// and an out-of-memory each make the fuzz run fail and name the artifact. It calls no project code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSelfTest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if text.hasPrefix("CRASH") {
        let values: [Int] = []
        return CInt(values[size])  // out of bounds: a trap, as a decoder bug would be
    }
    if text.hasPrefix("HANG") {
        var spins: UInt64 = 0
        while spins != .max { spins &+= UInt64(truncatingIfNeeded: size) | 1 }  // never ends in time
    }
    if text.hasPrefix("OOM") {
        let huge = UnsafeMutableRawPointer.allocate(byteCount: 3 << 30, alignment: 16)  // over the limit
        huge.storeBytes(of: 1, as: UInt8.self)
        huge.deallocate()
    }
    return 0
}

// SwiftPM links an executable's entry point as FuzzSelfTest_main; hand it to libFuzzer's driver.
@_cdecl("FuzzSelfTest_main")
public func fuzzSelfTestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in fuzzSelfTest(data, size) }
}
