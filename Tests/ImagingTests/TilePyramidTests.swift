import TestSupport
import Testing
import Glibc
import Graphics
@testable import Imaging

/// A new folder inside the suite's `scratch`, removed after the test.
private func temporaryFolder(in scratch: ScratchDirectory) -> String { scratch.newFolder("tiles") }

private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}

private func maxDifference(_ a: Bitmap, _ b: Bitmap, x: Int = 0, y: Int = 0) -> Int {
    var worst = 0
    for row in 0..<a.height {
        for col in 0..<a.width {
            let p = a.color(x: col, y: row), q = b.color(x: x + col, y: y + row)
            worst = max(worst, abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)))
        }
    }
    return worst
}

private func meanDifference(_ a: Bitmap, _ b: Bitmap, x: Int = 0, y: Int = 0) -> Double {
    var total = 0
    for row in 0..<a.height {
        for col in 0..<a.width {
            let p = a.color(x: col, y: row), q = b.color(x: x + col, y: y + row)
            total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
        }
    }
    return Double(total) / Double(3 * a.width * a.height)
}

@Suite struct TileLayoutTests {
    @Test func levelsFollowOpenSeadragon() {
        let layout = DeepZoomLayout(width: 5640, height: 3172, tileSize: 256)
        #expect(layout.maxLevel == 13)
        #expect(layout.levelSize(13) == (5640, 3172))
        #expect(layout.levelSize(12) == (2820, 1586))
        #expect(layout.levelSize(11) == (1410, 793))
        #expect(layout.levelSize(10) == (705, 397))
        #expect(layout.levelSize(0) == (1, 1))
        #expect(layout.tileCount(13) == (23, 13))
        #expect(DeepZoomLayout(width: 1, height: 1).maxLevel == 0)
        #expect(DeepZoomLayout(width: 256, height: 3).maxLevel == 8)
        #expect(DeepZoomLayout(width: 257, height: 3).maxLevel == 9)
    }

    @Test func overlapWidensTilesTowardsTheirNeighbours() {
        // dzsave's default: 254-pixel squares with one pixel from each neighbour.
        let layout = DeepZoomLayout(width: 600, height: 400, tileSize: 254, overlap: 1)
        #expect(layout.tileCount(layout.maxLevel) == (3, 2))
        #expect(layout.storedRect(level: 10, column: 0, row: 0) == (0, 0, 255, 255))
        #expect(layout.storedRect(level: 10, column: 1, row: 0) == (253, 0, 256, 255))
        #expect(layout.storedRect(level: 10, column: 2, row: 1) == (507, 253, 93, 147))
        #expect(layout.contentRect(level: 10, column: 0, row: 0) == (0, 0, 254, 254))
        #expect(layout.contentRect(level: 10, column: 1, row: 1) == (1, 1, 254, 146))
        #expect(layout.contentRect(level: 10, column: 2, row: 0) == (1, 0, 92, 254))
    }

    @Test func descriptorRoundTripsAndReadsDzsaveFiles() throws {
        let ours = DeepZoomDescriptor(layout: DeepZoomLayout(width: 20000, height: 15000, tileSize: 256), format: "jpg")
        #expect(try DeepZoomDescriptor.parse(ours.xml) == ours)
        let dzsave = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
          Format="jpeg"
          Overlap="1"
          TileSize="254"
          >
          <Size
            Height="3172"
            Width="5640"
          />
        </Image>
        """
        let parsed = try DeepZoomDescriptor.parse(dzsave)
        #expect(parsed.layout == DeepZoomLayout(width: 5640, height: 3172, tileSize: 254, overlap: 1))
        #expect(parsed.format == "jpeg")
        #expect(throws: ImagingError.self) { try DeepZoomDescriptor.parse("<html></html>") }
        #expect(throws: ImagingError.self) { try DeepZoomDescriptor.parse("<Image TileSize=\"0\"><Size Width=\"5\" Height=\"5\"/></Image>") }
    }

    @Test func halvingAveragesEachTwoByTwoBlock() {
        let source = Bitmap(width: 3, height: 3)
        let values: [UInt32] = [0x000000, 0x040404, 0x101010,
                                0x080808, 0x0C0C0C, 0x202020,
                                0xFF0000, 0x00FF00, 0x0000FF]
        for (i, v) in values.enumerated() { source.setPixel(x: i % 3, y: i / 3, v) }
        let half = Bitmap(width: 2, height: 2)
        HalfScaler.halve(source, width: 3, rows: 3, into: half)
        #expect(half.color(x: 0, y: 0) == Color(rgb: 0x060606))               // (0+4+8+12)/4
        #expect(half.color(x: 1, y: 0) == Color(rgb: 0x181818))               // odd column with itself
        #expect(half.color(x: 0, y: 1) == Color(red: 128, green: 128, blue: 0)) // odd row with itself
        #expect(half.color(x: 1, y: 1) == Color(rgb: 0x0000FF))
    }
}

@Suite struct TilePyramidBuildTests {
    let scratch = ScratchDirectory()

    @Test func bandReaderRowsEqualAWholeDecode() throws {
        let folder = temporaryFolder(in: scratch)
        let path = folder + "/scene.jpg"
        try FileReader.write(try Fixtures.jpeg(Fixtures.scene(width: 333, height: 250)), to: path)
        let whole = try ImageDecoder.decode(path: path).bitmap
        let reader = try JPEGBandReader(path: RawPath(path))
        #expect(reader.width == 333 && reader.height == 250)
        let band = Bitmap(width: 333, height: 64)
        var y = 0
        while true {
            let rows = try reader.readRows(into: band)
            if rows == 0 { break }
            for r in 0..<rows {
                for x in stride(from: 0, to: 333, by: 7) { #expect(band.pixel(x: x, y: r) == whole.pixel(x: x, y: y + r)) }
            }
            y += rows
        }
        #expect(y == 250)
    }

    @Test func jpegPyramidHasEveryLevelAndReadsBack() throws {
        let folder = temporaryFolder(in: scratch)
        let path = folder + "/big.jpg"
        let original = Fixtures.gradient(width: 700, height: 530)
        try FileReader.write(try Fixtures.jpeg(original), to: path)
        var progressCalls: [Int] = []
        let descriptor = try PyramidBuilder.build(imageAt: path, directory: folder + "/out", name: "big",
                                                  progress: { done, total in progressCalls.append(done); #expect(total == 530) })
        #expect(progressCalls.last == 530)
        let layout = descriptor.layout
        #expect(layout.maxLevel == 10)
        for level in 0...layout.maxLevel {
            let count = layout.tileCount(level)
            for c in 0..<count.columns {
                for r in 0..<count.rows {
                    #expect(fileExists(folder + "/out/big_files/\(level)/\(c)_\(r).jpg"), "level \(level) tile \(c)_\(r)")
                }
            }
            #expect(!fileExists(folder + "/out/big_files/\(level)/\(count.columns)_0.jpg"))
        }
        let source = try DeepZoomTileSource(descriptorPath: folder + "/out/big.dzi")
        #expect(source.layout == layout)
        // Full level: the partial corner tile matches the original within JPEG error.
        let corner = try source.tile(level: 10, column: 2, row: 2)
        #expect(corner.width == 700 - 512 && corner.height == 530 - 512)
        #expect(maxDifference(corner, original, x: 512, y: 512) < 40)
        // Level 9 is the original halved.
        let half = Bitmap(width: 350, height: 265)
        HalfScaler.halve(original, width: 700, rows: 530, into: half)
        let t = try source.tile(level: 9, column: 1, row: 0)
        #expect(t.width == 94 && t.height == 256)
        #expect(meanDifference(t, half, x: 256, y: 0) < 2)
        #expect(meanDifference(t, half, x: 0, y: 0) > 20)   // and not just any picture
        // Level 0 is one pixel.
        let dot = try source.tile(level: 0, column: 0, row: 0)
        #expect(dot.width == 1 && dot.height == 1)
    }

    @Test func pngPyramidIsExactAtEveryLevel() throws {
        let folder = temporaryFolder(in: scratch)
        let original = Fixtures.gradient(width: 300, height: 200)
        var rows = BitmapRowSource(original)
        let descriptor = try PyramidBuilder.build(from: &rows, directory: folder, name: "g",
                                                  options: .init(tileSize: 128, format: .png))
        #expect(descriptor.format == "png")
        #expect(try DeepZoomDescriptor.parse(String(decoding: FileReader.read(path: folder + "/g.dzi"), as: UTF8.self)) == descriptor)
        let source = try DeepZoomTileSource(descriptorPath: folder + "/g.dzi")
        #expect(maxDifference(try source.tile(level: 9, column: 2, row: 1), original, x: 256, y: 128) == 0)
        var level = original
        for l in stride(from: 8, through: 5, by: -1) {
            let next = Bitmap(width: (level.width + 1) / 2, height: (level.height + 1) / 2)
            HalfScaler.halve(level, width: level.width, rows: level.height, into: next)
            level = next
            #expect(maxDifference(try source.tile(level: l, column: 0, row: 0), level) == 0, "level \(l)")
        }
    }

    /// A pyramid as libvips dzsave writes it (254 + overlap 1), made by hand: tiles read back
    /// with their content rectangles exactly on the original pixels.
    @Test func handWrittenDzsavePyramidWithOverlapReads() throws {
        let folder = temporaryFolder(in: scratch)
        let original = Fixtures.gradient(width: 600, height: 400)
        let layout = DeepZoomLayout(width: 600, height: 400, tileSize: 254, overlap: 1)
        let level = layout.maxLevel
        try PyramidBuilder.makeDirectory(folder + "/v_files")
        try PyramidBuilder.makeDirectory(folder + "/v_files/\(level)")
        try writeDeepZoomLevel(original, level: level, layout: layout, into: folder + "/v_files/\(level)")
        try writeDeepZoomDescriptor(layout, to: folder + "/v.dzi")
        let source = try DeepZoomTileSource(descriptorPath: folder + "/v.dzi")
        #expect(source.layout == layout)
        let tile = try source.tile(level: level, column: 1, row: 1)
        #expect(tile.width == 256 && tile.height == 147)
        let content = layout.contentRect(level: level, column: 1, row: 1)
        let inner = Bitmap(width: content.width, height: content.height)
        Canvas(target: inner).draw(tile, from: Rect(x: content.x, y: content.y, width: content.width, height: content.height),
                                   in: Rect(x: 0, y: 0, width: content.width, height: content.height))
        #expect(maxDifference(inner, original, x: 254, y: 254) == 0)
    }

    @Test func cacheKeysOnPathSizeAndModificationTime() throws {
        let folder = temporaryFolder(in: scratch)
        let path = folder + "/p.jpg"
        try FileReader.write(try Fixtures.jpeg(Fixtures.scene(width: 300, height: 300)), to: path)
        let cache = PyramidCache(directory: folder + "/cache")
        #expect(cache.existing(for: RawPath(path)) == nil)
        let built = try cache.build(for: RawPath(path))
        #expect(cache.existing(for: RawPath(path)) == built)
        #expect(try DeepZoomTileSource(descriptorPath: built).layout.width == 300)
        // A new modification time is a new pyramid.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(cache.existing(for: RawPath(path)) == nil)
        #expect(cache.descriptorPath(for: RawPath(path)) != built)
    }

    @Test func proceduralTilesAgreeAcrossLevels() throws {
        let source = ProceduralTileSource(width: 20000, height: 20000, tileSize: 256, cellSize: 1000)
        #expect(source.layout.maxLevel == 15)
        // A point well inside a cell, away from labels and frames, has the cell's colour at the
        // full level and at a level 8x coarser.
        let image = (x: 5500, y: 12330)
        let full = try source.tile(level: 15, column: image.x / 256, row: image.y / 256)
        #expect(full.color(x: image.x % 256, y: image.y % 256 + 60) == source.color(atImagePoint: image.x, image.y + 60))
        let coarse = try source.tile(level: 12, column: image.x / 8 / 256, row: image.y / 8 / 256)
        let cx = image.x / 8 % 256, cy = image.y / 8 % 256
        #expect(coarse.color(x: cx, y: cy) == source.color(atImagePoint: image.x, image.y))
        let last = try source.tile(level: 15, column: 78, row: 78)
        #expect(last.width == 20000 - 78 * 256 && last.height == 32)
    }

    @Test func onTheFlyTilesCutFromADCTScaledDecode() throws {
        let folder = temporaryFolder(in: scratch)
        let path = folder + "/p.jpg"
        let original = Fixtures.gradient(width: 1600, height: 1200)
        try FileReader.write(try Fixtures.jpeg(original), to: path)
        let source = try OnTheFlyTileSource(path: path)
        #expect(source.layout.maxLevel == 11)
        let tile = try source.tile(level: 11, column: 6, row: 4)
        #expect(tile.width == 1600 - 1536 && tile.height == 1200 - 1024)
        #expect(maxDifference(tile, original, x: 1536, y: 1024) < 12)
        let small = try source.tile(level: 8, column: 0, row: 0)   // 200x150: 1/8 DCT decode
        #expect(small.width == 200 && small.height == 150)
        let c = small.color(x: 100, y: 75), o = original.color(x: 804, y: 604)
        #expect(abs(Int(c.red) - Int(o.red)) < 12 && abs(Int(c.green) - Int(o.green)) < 12)
    }

    @Test func levelsOverTheLimitAreLeftToThePyramid() throws {
        let folder = temporaryFolder(in: scratch)
        let path = folder + "/p.jpg"
        try FileReader.write(try Fixtures.jpeg(Fixtures.gradient(width: 1600, height: 1200)), to: path)
        // Level 11 is 1600x1200 (7.7 MB of pixels), level 10 800x600 (1.9 MB).
        let source = try OnTheFlyTileSource(path: path, maxLevelBytes: 2 << 20)
        #expect(throws: ImagingError.self) { try source.tile(level: 11, column: 0, row: 0) }
        do {
            _ = try source.tile(level: 11, column: 0, row: 0)
        } catch let error as ImagingError {
            #expect(error.kind == .tooLarge)
        }
        #expect(try source.tile(level: 10, column: 0, row: 0).width == 256)
    }
}

@Suite struct TilePyramidCachePruningTests {
    let scratch = ScratchDirectory()

    @Test func pruningDropsTheOldestPyramidsButNotTheOneInUse() throws {
        let folder = temporaryFolder(in: scratch)
        let cache = PyramidCache(directory: folder + "/cache")
        var descriptors: [String] = []
        for i in 0..<3 {
            let path = folder + "/p\(i).jpg"
            try FileReader.write(try Fixtures.jpeg(Fixtures.scene(width: 600, height: 400)), to: path)
            let built = try cache.build(for: RawPath(path))
            var times = [timespec(tv_sec: 1_000_000 + i * 100, tv_nsec: 0), timespec(tv_sec: 1_000_000 + i * 100, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, built, &times, 0) == 0)
            descriptors.append(built)
        }
        let entries = cache.entries()
        #expect(entries.count == 3)
        #expect(entries.map { $0.folder + "/image.dzi" } == descriptors)
        let each = entries[0].bytes
        #expect(each > 10_000)
        // Room for about two: the oldest goes unless it is in use, then the next oldest.
        cache.touch(descriptors[0])
        let freed = cache.prune(toBytes: entries.reduce(0) { $0 + $1.bytes } - 1, keeping: nil)
        #expect(freed > 0)
        #expect(fileExists(descriptors[0]))       // touched: now the newest
        #expect(!fileExists(descriptors[1]))
        #expect(fileExists(descriptors[2]))
        cache.prune(toBytes: 0, keeping: descriptors[2])
        #expect(!fileExists(descriptors[0]))
        #expect(fileExists(descriptors[2]))
        #expect(cache.entries().count == 1)
    }
}
