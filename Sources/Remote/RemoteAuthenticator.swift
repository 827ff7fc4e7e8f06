import RemoteServer

/// Who may use the remote API: a request carries `Authorization: Bearer TOKEN`, or the session
/// cookie the page's login form set after the same token was typed. Tokens are compared in
/// constant time; failures go through a `FailureThrottle`.
public final class RemoteAuthenticator {
    public static let cookieName = "pk_session"
    /// Sessions last a month; the page asks for the token again after that.
    public static let sessionSeconds = 30.0 * 86_400
    static let maximumSessions = 64

    private var token: [UInt8]
    private var sessions: [(id: [UInt8], expires: Double)] = []
    public private(set) var throttle: FailureThrottle
    private let now: () -> Double

    public init(token: String, throttle: FailureThrottle.Policy = .init(), now: @escaping () -> Double) {
        self.token = Array(token.utf8)
        self.throttle = FailureThrottle(policy: throttle)
        self.now = now
    }

    public enum Verdict: Equatable {
        case allowed
        /// Refused; answer after `delay` seconds.
        case refused(delay: Double)
    }

    /// Checks the request's bearer token or session cookie; records the outcome for its address.
    public func check(_ request: HTTPRequest) -> Verdict {
        if isAuthorized(request) {
            throttle.recordSuccess(from: request.clientAddress)
            return .allowed
        }
        return .refused(delay: throttle.recordFailure(from: request.clientAddress, now: now()))
    }

    /// Makes `newToken` the only one that works from now on and ends every session: a new pairing
    /// code on the frame's screen signs out every phone.
    public func replaceToken(with newToken: String) {
        token = Array(newToken.utf8)
        sessions.removeAll()
    }

    /// A new session for a correct token typed into the login form (its cookie value), or nil.
    public func login(token typed: String, from address: String) -> (session: String?, delay: Double) {
        guard Self.constantTimeEquals(Array(typed.utf8), token) else {
            return (nil, throttle.recordFailure(from: address, now: now()))
        }
        throttle.recordSuccess(from: address)
        let t = now()
        sessions.removeAll { $0.expires <= t }
        if sessions.count >= Self.maximumSessions { sessions.removeFirst() }
        let id = SecureRandom.hex(24)
        sessions.append((Array(id.utf8), t + Self.sessionSeconds))
        return (id, 0)
    }

    func isAuthorized(_ request: HTTPRequest) -> Bool {
        if let header = request.headers["authorization"] {
            let prefix = "Bearer "
            guard header.count > prefix.count, header.lowercased().hasPrefix(prefix.lowercased()) else { return false }
            return Self.constantTimeEquals(Array(header.utf8.dropFirst(prefix.utf8.count)), token)
        }
        if let cookie = request.cookies[Self.cookieName] {
            let presented = Array(cookie.utf8)
            let t = now()
            var found = false
            // Every live session is compared in full, so timing does not tell which one is near.
            for session in sessions where session.expires > t {
                if Self.constantTimeEquals(presented, session.id) { found = true }
            }
            return found
        }
        return false
    }

    /// Equal bytes, in a time that depends only on `expected`'s length.
    public static func constantTimeEquals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(presented.count == expected.count ? 0 : 1)
        for i in 0..<expected.count {
            let p = i < presented.count ? presented[i] : 0
            difference |= p ^ expected[i]
        }
        return difference == 0
    }
}
