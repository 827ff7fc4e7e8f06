/// How a phone reaches this frame's remote page, shown on the frame's own screen (the no-photos
/// screen, the info screen) as a QR code and as text to type.
public struct PairingOffer: Equatable, Sendable {
    /// What the QR code holds: the page's address, with the pairing token when there is one.
    public var url: String
    /// The address without any secret, to type into a browser ("http://192.168.1.20:8080/").
    public var address: String

    public init(url: String, address: String) {
        self.url = url
        self.address = address
    }
}
