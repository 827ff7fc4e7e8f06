import Imaging

/// The part of `ImageLoader` the album and thumbnail services use; tests record requests and
/// cancels through it.
public protocol AlbumImageLoading: AnyObject {
    func request(_ key: ImageKey, distance: Double, completion: @escaping ImageLoader.Completion) -> LoadTicket
    func update(_ ticket: LoadTicket, distance: Double)
    func cancel(_ ticket: LoadTicket)
}

extension ImageLoader: AlbumImageLoading {}
