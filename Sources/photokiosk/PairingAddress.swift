import PhotoKioskApp
import RemoteServer

/// The address a phone on the same network opens to reach the remote page, for the frame's own
/// screen: the configured host, or this computer's first LAN address when the page listens on
/// all of them. None when the page listens on loopback only (a phone cannot reach it).
enum PairingAddress {
    static func offer(listen: KioskConfig.ListenAddress, port: UInt16, localAddresses: () -> [String] = LocalAddresses.ipv4) -> PairingOffer? {
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
        return PairingOffer(url: address, address: address)
    }
}
