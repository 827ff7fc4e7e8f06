import Graphics
import Testing
@testable import Imaging

@Suite("Cancellation")
struct CancellationTests {
    static let jpeg = try! Fixtures.jpeg(Fixtures.scene(width: 256, height: 256))
    static let progressive = try! Fixtures.jpeg(Fixtures.scene(width: 256, height: 256), .init(progressive: true))
    static let png = try! PNGEncoder.encode(Fixtures.scene(width: 64, height: 256))

    @Test func cancelledBeforeStartingDoesNoWork() {
        let cancellation = DecodeCancellation()
        cancellation.cancel()
        for bytes in [Self.jpeg, Self.png] {
            let error = imagingError { () throws(ImagingError) in try ImageDecoder.decode(bytes: bytes, cancellation: cancellation) }
            #expect(error?.kind == .cancelled)
        }
        let fromPath = imagingError { () throws(ImagingError) in try ImageDecoder.decode(path: "/nonexistent.jpg", cancellation: cancellation) }
        #expect(fromPath?.kind == .cancelled)
    }

    @Test("stops in the middle of decoding", arguments: [0, 1, 2])
    func stopsMidway(which: Int) throws {
        let bytes = [Self.jpeg, Self.progressive, Self.png][which]
        let error = imagingError { () throws(ImagingError) in
            try ImageDecoder.decode(bytes: bytes, cancellation: DecodeCancellation(cancellingAfterPolls: 3))
        }
        #expect(error?.kind == .cancelled)
        #expect(error?.description == "decoding cancelled")
        // Without the countdown running out, the same decode completes.
        let image = try ImageDecoder.decode(bytes: bytes, cancellation: DecodeCancellation())
        #expect(image.bitmap.height == 256)
    }
}
