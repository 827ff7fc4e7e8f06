import RemoteServer

/// Cross-site request forgery, beyond the session cookie's SameSite=Strict (which counts another
/// port of the frame's address as the same site): a request that changes something must carry
/// the body type its endpoint reads (a page elsewhere can send JSON only after a CORS preflight,
/// which the server never grants), and when it names where it came from (Origin, else Referer),
/// that must be this server as the request's Host names it.
enum CrossSiteCheck {
    /// Why the request is refused (403), or nil. `bodyTypes`: the media types accepted.
    static func refusal(_ request: HTTPRequest, bodyTypes: [String]) -> String? {
        let host = request.headers["host"]?.lowercased()
        if let origin = request.headers["origin"] {
            guard let host, authority(of: origin) == host else {
                return "the request comes from \(origin), not from this page (\(host ?? "no Host")); cross-site requests are refused"
            }
        } else if let referer = request.headers["referer"] {
            guard let host, authority(of: referer) == host else {
                return "the request comes from a page elsewhere (Referer), not from this server; cross-site requests are refused"
            }
        }
        guard let type = request.mediaType, bodyTypes.contains(type) else {
            let wanted = bodyTypes.joined(separator: " or ")
            return "send Content-Type: \(wanted) here (got \(request.mediaType ?? "none")); other types are refused so that another site's form cannot post"
        }
        return nil
    }

    /// "host:port" of "http://host:port/path" (lower-cased); nil for "null" or a string that is no URL.
    static func authority(of url: String) -> String? {
        let bytes = Array(url.utf8)
        guard let scheme = bytes.firstRange(of: Array("://".utf8)) else { return nil }
        let rest = bytes[scheme.upperBound...]
        let end = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
        let authority = String(decoding: rest[..<end], as: UTF8.self).lowercased()
        return authority.isEmpty || authority.contains("@") ? nil : authority
    }
}
