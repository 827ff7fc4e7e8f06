import PhotoKioskApp
@testable import Remote
import Testing

/// Issue 30 item 3: the frame's QR code (http://ADDR:PORT/?pair=TOKEN) signs a phone in and
/// sends it on to / without the token; a new code signs every phone out.
@Suite struct PairingTests {
    @Test("?pair=TOKEN sets the session cookie and redirects to / without the token")
    func pairingLinkSignsIn() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.request("GET", "/?pair=\(RemoteFixture.token)", authorized: false))
        #expect(reply.status == 303)
        #expect(reply.headers["location"] == "/")
        let setCookie = try #require(reply.headers["set-cookie"])
        #expect(setCookie.hasPrefix("\(RemoteAuthenticator.cookieName)="))
        #expect(!setCookie.contains(RemoteFixture.token), "the session is not the token")
        let session = String(setCookie.split(separator: ";")[0])
        let page = try #require(try f.request("GET", "/", headers: [("Cookie", session)], authorized: false))
        #expect(page.status == 200)
        #expect(page.text.contains("id=\"drop\""))
    }

    @Test("A wrong or old code gets the login page and no cookie")
    func wrongCode() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.request("GET", "/?pair=not-the-token-at-all", authorized: false))
        #expect(reply.status == 401)
        #expect(reply.headers["set-cookie"] == nil)
        #expect(reply.text.contains("action=\"/login\""))
    }

    @Test("A new token signs every phone out; the old token and its sessions stop working")
    func newTokenSignsOut() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.request("GET", "/?pair=\(RemoteFixture.token)", authorized: false))
        let session = String(try #require(reply.headers["set-cookie"]).split(separator: ";")[0])
        let fresh = "fresh-token-0123456789abcdef"
        f.service.api.authenticator.replaceToken(with: fresh)
        let signedOut = try #require(try f.request("GET", "/api/status", headers: [("Cookie", session)], authorized: false))
        #expect(signedOut.status == 401)
        let oldBearer = try #require(try f.request("GET", "/api/status"))
        #expect(oldBearer.status == 401)
        let newBearer = try #require(try f.request("GET", "/api/status", headers: [("Authorization", "Bearer \(fresh)")], authorized: false))
        #expect(newBearer.status == 200)
        let paired = try #require(try f.request("GET", "/?pair=\(fresh)", authorized: false))
        #expect(paired.status == 303)
    }
}
