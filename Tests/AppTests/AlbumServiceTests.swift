import Testing
import Graphics
@testable import Imaging
import Logging
import UI
@testable import PhotoKioskApp
@testable import Widgets

/// Records what the album service asks the loader for, and finishes loads when the test says.
final class RecordingLoader: ImageLoading {
    struct Request { let ticket: LoadTicket; let distance: Double }
    private(set) var requests: [Request] = []
    private(set) var cancelled: [LoadTicket] = []
    private var completions: [UInt64: ImageLoader.Completion] = [:]
    private var nextID: UInt64 = 1

    func request(_ key: ImageKey, distance: Double, completion: @escaping ImageLoader.Completion) -> LoadTicket {
        let ticket = LoadTicket(id: nextID, key: key)
        nextID += 1
        requests.append(Request(ticket: ticket, distance: distance))
        completions[ticket.id] = completion
        return ticket
    }

    func update(_ ticket: LoadTicket, distance: Double) {}

    func cancel(_ ticket: LoadTicket) {
        cancelled.append(ticket)
        completions[ticket.id] = nil
    }

    /// Tickets requested and neither finished nor cancelled.
    var open: [LoadTicket] { requests.map(\.ticket).filter { completions[$0.id] != nil } }

    /// Finishes the open load for `key` as a real loader would (filling `cache` on success).
    func finish(_ key: ImageKey, with result: Result<Bitmap, any Error>, originalSize: Size? = nil, cache: ImageCache?) {
        guard let ticket = open.first(where: { $0.key == key }), let completion = completions.removeValue(forKey: ticket.id) else {
            Issue.record("no open load for \(key)")
            return
        }
        if case .success(let bitmap) = result { cache?.insert(bitmap, for: key) }
        completion(key, result.map { LoadedImage(bitmap: $0, originalSize: originalSize) })
    }
}

struct TestError: Error {}

@Suite struct AlbumServiceTests {
    let screen = Size(width: 400, height: 300)

    func makeService(count: Int, cacheBudget: Int = 64 << 20) -> (AlbumService, RecordingLoader, ImageCache, OriginalSizes, PhotoList) {
        let photos = PhotoList()
        let files = (0..<count).map { i in
            ScannedFile(path: RawPath("/photos/p\(1000 + i).jpg"), type: .jpeg, identity: FileIdentity(device: 1, inode: UInt64(i + 1)),
                        size: 1000, modificationSeconds: 0)
        }
        _ = photos.add(files)
        let loader = RecordingLoader()
        let cache = ImageCache(budget: cacheBudget)
        let sizes = OriginalSizes()
        let service = AlbumService(photos: photos, loader: loader, cache: cache, sizes: sizes, screenSize: screen,
                                   thumbnailEdge: 100, logger: Logger(label: "test"))
        return (service, loader, cache, sizes, photos)
    }

    /// A window showing `service`'s album from its first photo, wired as the app wires it: each
    /// change reaches the page (after `observe`, when given).
    func showAlbum(_ service: AlbumService,
                   observe: @escaping (Int, PhotoContent) -> Void = { _, _ in }) -> (window: Window, album: PhotoAlbumView) {
        let window = Window(size: screen, clock: ManualClock())
        let album = PhotoAlbumView(frame: Rect(size: screen))
        window.addSubview(album)
        service.onChange = { index, content in
            observe(index, content)
            album.photoDidChange(at: index, to: content)
        }
        album.show(service, at: 0)
        return (window, album)
    }

    func bitmap(_ color: Color, _ w: Int, _ h: Int) -> Bitmap {
        let b = Bitmap(width: w, height: h)
        Canvas(target: b).clear(color)
        return b
    }

    @Test func theCentrePhotoLoadsThumbnailThenScreenBeforeItsNeighbours() {
        let (service, loader, _, _, _) = makeService(count: 10)
        service.updateWantedPhotos([5: PhotoDemand(quality: .screen, distance: 0), 6: PhotoDemand(quality: .screen, distance: 1)])
        let order = loader.requests.sorted { $0.distance < $1.distance }.map { "\($0.ticket.key.path.lastComponent.count > 0 ? String(decoding: $0.ticket.key.path.lastComponent, as: UTF8.self) : "")@\($0.ticket.key.size)" }
        #expect(order == ["p1005.jpg@thumb100", "p1005.jpg@screen400x300", "p1006.jpg@thumb100", "p1006.jpg@screen400x300"])
        // Asking again for the same photos does not request twice.
        service.updateWantedPhotos([5: PhotoDemand(quality: .screen, distance: 0), 6: PhotoDemand(quality: .screen, distance: 1)])
        #expect(loader.requests.count == 4)
    }

    @Test func loadsFinishingOutOfOrderNeverDowngradeThePage() throws {
        let (service, loader, cache, sizes, photos) = makeService(count: 3)
        let (window, album) = showAlbum(service)
        defer { withExtendedLifetime(window) {} }
        let path = photos[0].path
        sizes.record(Size(width: 4000, height: 3000), for: path)
        let page = try #require(album.centerPage)
        // The screen image arrives first, the thumbnail after it.
        loader.finish(service.screenKey(path), with: .success(bitmap(.green, 400, 300)), cache: cache)
        #expect(page.content.quality == .screen)
        loader.finish(service.thumbnailKey(path), with: .success(bitmap(.red, 100, 75)), cache: cache)
        #expect(page.content.quality == .screen)
        #expect(page.bitmap?.width == 400)
        // Zoomed in: the full image is wanted, arrives, and a late screen image cannot replace it.
        album.pager.layoutIfNeeded()
        page.setZoomScale(1, animated: false)
        let fullKey = ImageKey(path: path, size: .full)
        #expect(loader.open.contains { $0.key == fullKey })
        loader.finish(fullKey, with: .success(bitmap(.blue, 4000, 3000)), cache: nil)
        #expect(page.content.quality == .full)
        album.photoDidChange(at: 0)
        #expect(page.content.quality == .full)
        #expect(service.photoContent(at: 0).quality == .full)
    }

    @Test func aFullImageTheCacheRefusesIsStillShown() throws {
        let (service, loader, _, sizes, photos) = makeService(count: 1, cacheBudget: 1 << 20)
        let path = photos[0].path
        sizes.record(Size(width: 4000, height: 3000), for: path)
        service.updateWantedPhotos([0: PhotoDemand(quality: .full, distance: 0)])
        loader.finish(ImageKey(path: path, size: .full), with: .success(bitmap(.blue, 4000, 3000)), cache: ImageCache(budget: 1))
        #expect(service.photoContent(at: 0).quality == .full)
        // Not wanted at full quality any more: the service lets go of it.
        service.updateWantedPhotos([0: PhotoDemand(quality: .screen, distance: 0)])
        #expect(service.photoContent(at: 0).quality == .unknown)
    }

    @Test func aBrokenPhotoReportsItsFailureAndIsNotRequestedAgain() {
        let (service, loader, cache, _, photos) = makeService(count: 2)
        var changed: [Int] = []
        service.onChange = { index, _ in changed.append(index) }
        service.updateWantedPhotos([1: PhotoDemand(quality: .screen, distance: 0)])
        loader.finish(service.thumbnailKey(photos[1].path), with: .failure(TestError()), cache: cache)
        #expect(changed == [1])
        #expect(service.photoContent(at: 1).failure != nil)
        #expect(service.photoContent(at: 1).bitmap == nil)
        let before = loader.requests.count
        service.updateWantedPhotos([1: PhotoDemand(quality: .screen, distance: 0), 0: PhotoDemand(quality: .screen, distance: 1)])
        #expect(loader.requests.count == before + 2)
        #expect(loader.requests.suffix(2).allSatisfy { $0.ticket.key.path == photos[0].path })
    }

    @Test func pagingFastAcrossFiftyPhotosCancelsEveryLoadLeftBehind() {
        let (service, loader, _, _, photos) = makeService(count: 50)
        let clock = ManualClock()
        let window = Window(size: screen, clock: clock)
        let album = PhotoAlbumView(frame: Rect(size: screen))
        window.addSubview(album)
        service.onChange = { album.photoDidChange(at: $0, to: $1) }
        album.show(service, at: 0)
        var maxOpen = 0
        for index in 1..<50 {
            album.setCenterPageIndex(index, animated: true)
            for _ in 0..<4 {
                clock.advance(by: 1.0 / 60)
                window.advance(to: clock.now)
                maxOpen = max(maxOpen, loader.open.count)
            }
        }
        for _ in 0..<60 { clock.advance(by: 1.0 / 60); window.advance(to: clock.now) }
        #expect(album.centerPageIndex == 49)
        // Two loads (thumbnail, screen) per photo within two pages of the centre, at most.
        #expect(maxOpen <= 10)
        let openPaths = Set(loader.open.map(\.key.path))
        #expect(openPaths == Set((47...49).map { photos[$0].path }))
        // Every photo was requested once per key and everything left behind was cancelled.
        #expect(loader.requests.count == 100)
        #expect(loader.cancelled.count == loader.requests.count - loader.open.count)
        // Closing cancels the rest.
        service.stopAll()
        #expect(loader.open.isEmpty)
    }

    @Test func theOriginalSizeArrivesWithTheScreenDecodeAndReachesThePage() throws {
        let (service, loader, cache, sizes, photos) = makeService(count: 2)
        let (window, album) = showAlbum(service)
        defer { withExtendedLifetime(window) {} }
        let path = photos[0].path
        let page = try #require(album.centerPage)
        #expect(sizes.value(for: path) == nil && page.content.originalSize == nil)
        // The thumbnail (from the disk cache: no header read) brings no size.
        loader.finish(service.thumbnailKey(path), with: .success(bitmap(.red, 100, 75)), cache: cache)
        #expect(page.content.originalSize == nil)
        // The screen decode read the header on its worker: the size comes with the bitmap.
        loader.finish(service.screenKey(path), with: .success(bitmap(.green, 400, 300)),
                      originalSize: Size(width: 4000, height: 3000), cache: cache)
        #expect(page.content.originalSize == Size(width: 4000, height: 3000))
        #expect(page.content.quality == .screen)
        // A changed file forgets what the decodes noted.
        sizes.record(Size(width: 4000, height: 3000), for: path)
        service.invalidate(path: path)
        #expect(sizes.value(for: path) == nil)
    }

    /// An inner decoder that answers with a given original size and never touches the file.
    struct SizedDecoder: ImageSourceDecoder {
        let size: Size?
        func decode(_ request: ImageRequest) throws -> LoadedImage {
            LoadedImage(bitmap: Bitmap(width: 4, height: 3), originalSize: size)
        }
    }

    @Test func theRecordingDecoderNotesTheSizeTheDecodeBroughtWithoutOpeningTheFile() throws {
        let sizes = OriginalSizes()
        // No such file: a size can only come from the decode's own result.
        let path = RawPath("/nonexistent/photo.jpg")
        for size: SizeClass in [.thumbnail(edge: 100), .screen(width: 400, height: 300)] {
            let decoder = LoadNotingDecoder(SizedDecoder(size: Size(width: 4000, height: 3000)), notes: sizes) { $0.originalSize }
            _ = try decoder.decode(ImageRequest(key: ImageKey(path: path, size: size)))
            #expect(sizes.value(for: path) == Size(width: 4000, height: 3000))
            sizes.forget(path)
        }
        _ = try LoadNotingDecoder(SizedDecoder(size: nil), notes: sizes) { $0.originalSize }
            .decode(ImageRequest(key: ImageKey(path: path, size: .screen(width: 400, height: 300))))
        #expect(sizes.value(for: path) == nil)
    }

    @Test func anArrivingBitmapReachesThePageEvenWhenTheCacheRefusedIt() throws {
        let (service, loader, _, _, photos) = makeService(count: 1, cacheBudget: 1)
        var delivered: [PhotoQuality] = []
        let (window, album) = showAlbum(service) { delivered.append($1.quality) }
        defer { withExtendedLifetime(window) {} }
        let page = try #require(album.centerPage)
        loader.finish(service.screenKey(photos[0].path), with: .success(bitmap(.green, 400, 300)), cache: nil)
        #expect(delivered == [.screen])
        #expect(page.content.quality == .screen && page.bitmap?.width == 400)
    }
}

@Suite struct ThumbnailServiceDeliveryTests {
    @Test func anArrivingThumbnailGoesToItsCellWithoutAskingTheCacheAgain() throws {
        let photos = PhotoList()
        _ = photos.add((0..<4).map { i in
            ScannedFile(path: RawPath("/photos/t\(i).jpg"), type: .jpeg, identity: FileIdentity(device: 1, inode: UInt64(i + 1)),
                        size: 1000, modificationSeconds: 0)
        })
        let loader = RecordingLoader()
        // A cache too small to keep anything: only the bitmap that arrived can be shown.
        let cache = ImageCache(budget: 1)
        let service = ThumbnailService(photos: photos, loader: loader, cache: cache, logger: Logger(label: "test"))
        var states: [Int: ThumbnailState] = [:]
        service.onChange = { index, state in states[index] = state }
        service.updateWantedThumbnails([0: 0, 1: 1, 2: 2], edge: 64)
        #expect(loader.open.count == 3)
        let thumb = Bitmap(width: 64, height: 48)
        loader.finish(ImageKey(path: photos[1].path, size: .thumbnail(edge: 64)), with: .success(thumb), cache: cache)
        guard case .image(let shown)? = states[1] else { Issue.record("no image for cell 1: \(String(describing: states[1]))"); return }
        #expect(shown === thumb)
        loader.finish(ImageKey(path: photos[2].path, size: .thumbnail(edge: 64)), with: .failure(TestError()), cache: cache)
        guard case .failed? = states[2] else { Issue.record("no failure for cell 2"); return }
        // Withdrawn cells are cancelled and hear nothing more.
        service.updateWantedThumbnails([3: 0], edge: 64)
        #expect(loader.open.map(\.key.path) == [photos[3].path])
        #expect(service.pendingLoads == 1)
    }
}
