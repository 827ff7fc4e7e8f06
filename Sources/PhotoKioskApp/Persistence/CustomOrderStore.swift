import Glibc
import Imaging
import Logging
import SystemAccess

/// Keeps a person's photo order across restarts: applies the saved order to the photo list at
/// start (photos arriving from the scan take their saved places), saves it atomically after
/// every move, and forgets it on reset. The file is `<state directory>/order`.
public final class CustomOrderStore {
    public let file: String
    private let directory: String
    private let photos: PhotoList
    private let logger: Logger
    /// The order as last loaded or saved; keeps the places of photos the scan has not reached.
    public private(set) var saved: CustomOrder?
    /// Makes a write step fail, as a crash there would (tests).
    var failing: (AtomicFile.Step) -> Bool = { _ in false }

    public init(stateDirectory: String, photos: PhotoList, logger: Logger) {
        directory = stateDirectory
        file = stateDirectory + "/order"
        self.photos = photos
        self.logger = logger
    }

    /// Reads the saved order, if any, and arranges the list by it.
    public func load() {
        saved = CustomOrder.load(from: file)
        if let saved {
            photos.setCustomOrder(saved.paths)
            logger.info("custom photo order: \(counted(saved.paths.count, "photo")) from \(file)")
        }
    }

    /// Saves the list's current order. While the scan is still running, saved photos not seen
    /// yet keep their places after the ones shown; once it finished, missing photos are dropped.
    public func save(scanFinished: Bool) {
        var paths = photos.photos.map(\.path)
        if !scanFinished, let saved {
            let shown = Set(paths)
            paths += saved.paths.filter { !shown.contains($0) }
        }
        let order = CustomOrder(paths: paths)
        do {
            guard AtomicFile.makeDirectories(directory) else {
                logger.warning("cannot save the photo order: cannot create \(directory)")
                return
            }
            try order.save(to: file, failing: failing)
            saved = order
        } catch {
            logger.warning("cannot save the photo order: \(error)")
        }
    }

    /// Back to name/date order: the file is removed (one unlink, atomic by itself).
    public func reset() {
        photos.setCustomOrder(nil)
        saved = nil
        guard AtomicFile.remove(file) else { return }
        logger.info("photo order reset to \(photos.order)")
    }
}
