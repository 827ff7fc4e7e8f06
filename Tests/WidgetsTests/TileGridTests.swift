import Testing
import Graphics
@testable import Widgets

@Suite struct TileGridTests {
    @Test func levelSizesRoundUpLikeDeepZoom() {
        let grid = TileGrid(imageWidth: 1730, imageHeight: 2430, tileSize: 256)
        #expect(grid.levelSize(0) == (1730, 2430))
        #expect(grid.levelSize(-1) == (865, 1215))
        #expect(grid.levelSize(-2) == (433, 608))
        #expect(grid.levelSize(-12) == (1, 1))
        #expect(grid.tileCount(0) == (7, 10))
        #expect(grid.tileCount(-2) == (2, 3))
        #expect(grid.singleTileResolution == -4)   // 109x152
    }

    @Test func lastColumnAndRowArePartial() {
        let grid = TileGrid(imageWidth: 1730, imageHeight: 2430, tileSize: 256)
        #expect(grid.rect(of: TileID(resolution: 0, column: 6, row: 9)) == PixelRect(x: 1536, y: 2304, width: 194, height: 126))
        #expect(grid.rect(of: TileID(resolution: 0, column: 5, row: 0)) == PixelRect(x: 1280, y: 0, width: 256, height: 256))
        #expect(grid.rect(of: TileID(resolution: -2, column: 1, row: 2)) == PixelRect(x: 256, y: 512, width: 177, height: 96))
        #expect(grid.contains(TileID(resolution: 0, column: 6, row: 9)))
        #expect(!grid.contains(TileID(resolution: 0, column: 7, row: 0)))
        // Exactly one tile wide: no empty extra column.
        let exact = TileGrid(imageWidth: 512, imageHeight: 256, tileSize: 256)
        #expect(exact.tileCount(0) == (2, 1))
        #expect(exact.tiles(intersecting: Rect(x: 0, y: 0, width: 512, height: 256), resolution: 0).count == 2)
    }

    @Test func tilesIntersectingARectangle() {
        let grid = TileGrid(imageWidth: 1730, imageHeight: 2430, tileSize: 256)
        let ids = grid.tiles(intersecting: Rect(x: 255, y: 0, width: 2, height: 256), resolution: 0)
        #expect(ids == [TileID(resolution: 0, column: 0, row: 0), TileID(resolution: 0, column: 1, row: 0)])
        // A rectangle ending exactly on a tile edge does not touch the next tile.
        #expect(grid.tiles(intersecting: Rect(x: 0, y: 0, width: 256, height: 256), resolution: 0).count == 1)
        // Beyond the image: clipped to the last column/row; outside entirely: nothing.
        let edge = grid.tiles(intersecting: Rect(x: 1700, y: 2400, width: 500, height: 500), resolution: 0)
        #expect(edge == [TileID(resolution: 0, column: 6, row: 9)])
        #expect(grid.tiles(intersecting: Rect(x: 1731, y: 0, width: 10, height: 10), resolution: 0).isEmpty)
        #expect(grid.tiles(intersecting: Rect(x: -50, y: -50, width: 40, height: 40), resolution: 0).isEmpty)
    }

    @Test func liveTileBoundAndDisplayResolution() {
        #expect(TileGrid.liveTileBound(viewport: Size(width: 512, height: 512), tileSize: 256) == 36)
        #expect(TileGrid.liveTileBound(viewport: Size(width: 1920, height: 1080), tileSize: 256) == 9 * 6 * 4)
        #expect(TileGrid.displayResolution(forScale: 1, minimum: -8, maximum: 0) == 0)
        #expect(TileGrid.displayResolution(forScale: 0.5, minimum: -8, maximum: 0) == -1)
        #expect(TileGrid.displayResolution(forScale: 0.51, minimum: -8, maximum: 0) == 0)
        #expect(TileGrid.displayResolution(forScale: 0.2, minimum: -8, maximum: 0) == -2)
        #expect(TileGrid.displayResolution(forScale: 3, minimum: -8, maximum: 0) == 0)
        #expect(TileGrid.displayResolution(forScale: 0.0001, minimum: -8, maximum: 0) == -8)
    }
}

@Suite struct TileResolutionSnapperTests {
    @Test func examplesFromTheReference() {
        // z = 0.2 at r = 0 with minRes −3: d = −2 (0.2 ≤ 0.25 but not ≤ 0.125).
        #expect(ResolutionSnapper.delta(zoom: 0.2, resolution: 0, minimum: -3, maximum: 0) == -2)
        // z = 3 at r = 0 with maxRes 4: d = 2 (3 > 2).
        #expect(ResolutionSnapper.delta(zoom: 3, resolution: 0, minimum: -3, maximum: 4) == 2)
        #expect(ResolutionSnapper.delta(zoom: 0.75, resolution: 0, minimum: -3, maximum: 4) == 0)
        #expect(ResolutionSnapper.delta(zoom: 1, resolution: 0, minimum: -3, maximum: 4) == 0)
        // Exactly 0.5 drops one level (≤), exactly 2 does not rise (>).
        #expect(ResolutionSnapper.delta(zoom: 0.5, resolution: 0, minimum: -3, maximum: 4) == -1)
        #expect(ResolutionSnapper.delta(zoom: 2, resolution: 0, minimum: -3, maximum: 4) == 1)
        #expect(ResolutionSnapper.delta(zoom: 1.0001, resolution: 0, minimum: -3, maximum: 4) == 1)
        // Limits stop it: the drop cannot pass the minimum.
        #expect(ResolutionSnapper.delta(zoom: 0.01, resolution: 0, minimum: -3, maximum: 0) == -3)
        #expect(ResolutionSnapper.delta(zoom: 17, resolution: 0, minimum: -3, maximum: 0) == 0)
    }

    /// Effective scales 1 → 0.4 → 0.1 → 3 → 17 on an image whose fit is 0.05 and maximum 4.
    @Test func sequenceOfZooms() {
        var s = ResolutionSnapper(resolution: 0, minimumResolution: -5, maximumResolution: 0,
                                  zoomScale: 1, minimumZoomScale: 0.05, maximumZoomScale: 4)
        func zoom(toEffective e: Double) {
            let z = e / ResolutionSnapper.power(s.resolution)
            s.zoomScale = min(max(z, s.minimumZoomScale), s.maximumZoomScale)
            s.update()
        }
        zoom(toEffective: 1)
        #expect(s.resolution == 0 && s.zoomScale == 1)
        zoom(toEffective: 0.4)
        #expect(s.resolution == -1 && s.zoomScale == 0.8)
        #expect(s.minimumZoomScale == 0.1 && s.maximumZoomScale == 8)
        zoom(toEffective: 0.1)
        #expect(s.resolution == -3 && abs(s.zoomScale - 0.8) < 1e-12)
        #expect(s.minimumZoomScale == 0.4 && s.maximumZoomScale == 32)
        zoom(toEffective: 3)
        #expect(s.resolution == 0 && abs(s.zoomScale - 3) < 1e-12)
        zoom(toEffective: 17)   // clamped to the maximum; no level above full size
        #expect(s.resolution == 0 && s.zoomScale == 4)
        zoom(toEffective: 0.01) // clamped to fit 0.05: drop to −4 (0.05 ≤ 1/16), zoom 0.8
        #expect(s.resolution == -4 && abs(s.zoomScale - 0.8) < 1e-12)
        #expect(abs(s.effectiveScale - 0.05) < 1e-12)
    }
}
