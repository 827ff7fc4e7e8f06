import Basics
import PhotoKioskApp
import RemoteServer

/// The address a phone on the same network opens to reach the remote page, for the frame's own
/// screen: the configured host, or this computer's first LAN address when the page listens on
/// all of them. None when the page listens on loopback only (a phone cannot reach it).
enum PairingAddress {
    /// `token`: what the QR code carries (`?pair=TOKEN` signs the phone in); nil shows the address only.
    static func offer(listen: KioskConfig.ListenAddress, port: UInt16, token: String?,
                      localAddresses: () -> [String] = LocalAddresses.ipv4) -> PairingOffer? {
        let host: String
        switch listen.host {
        case "0.0.0.0", "::":
            guard let first = localAddresses().first else { return nil }
            host = first
        case let loopback where loopback.hasPrefix("127.") || loopback == "::1":
            return nil
        default:
            host = listen.host
        }
        let address = "http://\(KioskConfig.ListenAddress(host: host, port: port))/"
        // Tokens are of URL-safe characters (KioskConfig.Remote.tokenProblem) except + / =.
        let query = token.map { "?pair=" + $0.replacingPercentEncoded() } ?? ""
        return PairingOffer(url: address + query, address: address)
    }
}

private extension String {
    /// + / = written as %2B %2F %3D, so a query parser reads the token back unchanged.
    func replacingPercentEncoded() -> String { substituting(["+": "%2B", "/": "%2F", "=": "%3D"]) }
}
