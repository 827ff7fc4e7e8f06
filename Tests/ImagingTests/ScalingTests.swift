import Graphics
import Testing
import TestSupport
@testable import Imaging

@Suite("Decoding at a target size")
struct ScalingTests {
    @Test func dctScaleIsTheSmallestThatCoversTheTarget() {
        func pick(_ w: Int, _ h: Int, _ tw: Int, _ th: Int, eighths: Bool = false) -> Int {
            DCTScale.covering(width: w, height: h, target: (tw, th), usesEighths: eighths).eighths
        }
        #expect(pick(4000, 3000, 500, 375) == 1)
        #expect(pick(4000, 3000, 501, 375) == 2)
        #expect(pick(4000, 3000, 1000, 750) == 2)
        #expect(pick(4000, 3000, 1001, 750) == 4)
        #expect(pick(4000, 3000, 1920, 1440) == 4)
        #expect(pick(4000, 3000, 2001, 1440) == 8)
        #expect(pick(4000, 3000, 4000, 3000) == 8)
        #expect(pick(4000, 3000, 8000, 6000) == 8)    // upscaling: decode fully
        #expect(pick(4000, 3000, 1400, 1050, eighths: true) == 3)
        #expect(pick(4000, 3000, 1400, 1050) == 4)
        // libjpeg rounds scaled sizes up.
        #expect(DCTScale(eighths: 1).outputSize(width: 4001, height: 3001) == (501, 376))
        #expect(pick(4001, 3001, 501, 376) == 1)
        #expect(DCTScale(eighths: 2).description == "1/4" && DCTScale(eighths: 3).description == "3/8")
    }

    @Test func fittedSizeIsAspectFitWithoutUpscaling() {
        func fit(_ w: Double, _ h: Double, _ bw: Double, _ bh: Double, up: Bool = false) -> [Int] {
            let s = ImageDecoder.fittedSize(of: Size(width: w, height: h), in: Size(width: bw, height: bh), allowsUpscaling: up)
            return [s.width, s.height]
        }
        #expect(fit(4000, 3000, 256, 256) == [256, 192])
        #expect(fit(3000, 4000, 256, 256) == [192, 256])
        #expect(fit(1000, 10, 100, 100) == [100, 1])
        #expect(fit(100, 50, 400, 400) == [100, 50])
        #expect(fit(100, 50, 400, 400, up: true) == [400, 200])
        #expect(fit(101, 99, 33.5, 33.5) == [33, 32])
    }

    @Test("decoded size is exactly the fitted size", arguments: [(320, 240, 64, 64), (333, 201, 100, 100), (640, 480, 80, 60),
                                                                  (200, 300, 1000, 1000), (97, 13, 10, 10)])
    func exactSize(width: Int, height: Int, boxWidth: Int, boxHeight: Int) throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: width, height: height))
        let box = Size(width: boxWidth, height: boxHeight)
        let decoded = try ImageDecoder.decode(bytes: jpeg, fitting: box)
        let expected = ImageDecoder.fittedSize(of: Size(width: width, height: height), in: box)
        #expect(decoded.bitmap.width == expected.width && decoded.bitmap.height == expected.height)
        #expect(decoded.originalSize == Size(width: width, height: height))
        #expect(decoded.bitmap.format == .xrgb8888)
    }

    @Test("DCT-scaled decode matches full decode then resize", arguments: [(160, 120), (100, 75), (60, 45), (37, 28)])
    func scaledMatchesReference(targetWidth: Int, targetHeight: Int) throws {
        let source = Fixtures.scene(width: 640, height: 480)
        let jpeg = try Fixtures.jpeg(source, .init(quality: 92))
        let full = try ImageDecoder.decode(bytes: jpeg)
        let reference = Resampler.resize(full.bitmap, width: targetWidth, height: targetHeight)
        let scaled = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: targetWidth, height: targetHeight))
        #expect(scaled.bitmap.width == targetWidth && scaled.bitmap.height == targetHeight)
        let diff = PixelDifference(scaled.bitmap, reference)
        #expect(diff.mean < 4, "mean absolute difference \(diff.mean)")
    }

    @Test func decodeUsesTheDCTScale() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: 640, height: 480))
        let eighth = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 80, height: 80))
        #expect(eighth.dctScale == DCTScale(eighths: 1))
        #expect(eighth.bitmap.size == Size(width: 80, height: 60))
        #expect(try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 300, height: 300)).dctScale == DCTScale(eighths: 4))
        #expect(try ImageDecoder.decode(bytes: jpeg).dctScale == .full)
        // Portrait orientation: the box applies to the displayed size, the scale to stored pixels.
        let rotated = try JPEGEncoder.encode(Fixtures.scene(width: 640, height: 480),
                                             options: .init(markers: [.exif(tiff: TIFFBuilder(orientation: 6).build())]))
        let portrait = try ImageDecoder.decode(bytes: rotated, fitting: Size(width: 60, height: 80))
        #expect(portrait.bitmap.size == Size(width: 60, height: 80))
        #expect(portrait.dctScale == DCTScale(eighths: 1))
    }

    @Test func eighthScalesGiveTheSameSize() throws {
        let jpeg = try Fixtures.jpeg(Fixtures.scene(width: 400, height: 300))
        var options = DecodeOptions()
        options.usesEighthScales = true
        let a = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 140, height: 140), options: options)
        let b = try ImageDecoder.decode(bytes: jpeg, fitting: Size(width: 140, height: 140))
        #expect(a.bitmap.size == Size(width: 140, height: 105))
        #expect(PixelDifference(a.bitmap, b.bitmap).mean < 4)
    }

    @Test func bigShrinksAverageInsteadOfSkipping() {
        // 1-pixel black/white columns: any shrink that skips pixels shows stripes or a flat colour
        // far from the 50% grey an average gives.
        let stripes = Bitmap(width: 512, height: 8)
        for y in 0..<8 { for x in 0..<512 { stripes.setPixel(x: x, y: y, (x % 2 == 0 ? Color.white : Color.black).pixel) } }
        let small = Resampler.resize(stripes, width: 16, height: 2)
        for x in 0..<16 {
            let c = small.color(x: x, y: 1)
            #expect(abs(Int(c.red) - 128) <= 4, "column \(x): \(c.red)")
        }
    }
}
