/// The part of `ImageLoader` a `LoadSet` drives: ask, re-prioritise, withdraw. Tests record
/// requests and cancels through it.
public protocol ImageLoading: AnyObject {
    func request(_ key: ImageKey, distance: Double, completion: @escaping ImageLoader.Completion) -> LoadTicket
    func update(_ ticket: LoadTicket, distance: Double)
    func cancel(_ ticket: LoadTicket)
}

extension ImageLoader: ImageLoading {}
