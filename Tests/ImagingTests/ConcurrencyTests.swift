import Basics
import Dispatch
import Graphics
import Testing
@testable import Imaging

@Suite("Parallel decoding")
struct ConcurrencyTests {
    @Test func workersDecodeIndependently() throws {
        // Different sizes per worker: any shared decoder state would mix them up.
        let inputs: [[UInt8]] = try (0..<8).map { i in
            let bitmap = Fixtures.solid(width: 40 + i, height: 30 + i, Color(red: UInt8(i * 30), green: 90, blue: 200))
            return i % 2 == 0 ? try Fixtures.jpeg(bitmap) : try PNGEncoder.encode(bitmap)
        }
        let results = Locked<[Int: Color]>([:])
        let sizes = Locked<[Int: Size]>([:])
        DispatchQueue.concurrentPerform(iterations: 32) { n in
            let i = n % 8
            guard let image = try? ImageDecoder.decode(bytes: inputs[i], fitting: n < 16 ? nil : Size(width: 20, height: 20)) else { return }
            results.withLock { $0[n] = image.bitmap.color(x: image.bitmap.width / 2, y: image.bitmap.height / 2) }
            sizes.withLock { $0[n] = image.originalSize }
        }
        let colors = results.withLock { $0 }
        let originals = sizes.withLock { $0 }
        #expect(colors.count == 32)
        for (n, color) in colors {
            let i = n % 8
            #expect(abs(Int(color.red) - i * 30) <= 3, "worker \(n)")
            #expect(originals[n] == Size(width: 40 + i, height: 30 + i))
        }
    }
}
