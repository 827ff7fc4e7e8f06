import Basics
import Graphics
import Imaging
import Logging

/// The place table, opened on the first lookup (never, while the overlay's place is off) and
/// shared by the threads that read photo details. A table that cannot be opened is reported once
/// and the place line stays empty.
final class PlaceLookup: Sendable {
    let path: String?
    private let logger: Logger
    private enum State { case closed, open(PlaceTable), unavailable }
    private let state = Locked(State.closed)

    init(path: String?, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    func place(at position: GeoPosition) -> PlaceName? {
        let table: PlaceTable? = state.withLock { state in
            switch state {
            case .open(let table): return table
            case .unavailable: return nil
            case .closed:
                guard let path else {
                    logger.warning("overlay: no place table (assets/places/places.bin or \(ResourceLocator.installedPlaceTable)); places are not shown")
                    state = .unavailable
                    return nil
                }
                do {
                    let table = try PlaceTable(path: path)
                    state = .open(table)
                    return table
                } catch {
                    logger.warning("overlay: cannot open the place table: \(error); places are not shown")
                    state = .unavailable
                    return nil
                }
            }
        }
        return table?.nearest(to: position)
    }
}
