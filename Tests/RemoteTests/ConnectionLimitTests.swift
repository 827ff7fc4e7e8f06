import Basics
import Glibc
import Graphics
import Imaging
import PhotoKioskApp
import Platform
@testable import Remote
import RemoteServer
import Testing
import TestSupport

/// Issue 31 defect 2: the server must keep accepting whatever clients did before. Fills the
/// connection limit from many loopback addresses (127.0.0.2, .3, ... are all loopback) the ways
/// the probe did, releases it, and wants an answer within seconds (not never), every round.
@Suite(.serialized) struct ConnectionLimitTests {
    /// How a round's connections behave while they hold the slots.
    enum Hold: CaseIterable { case idle, trickling, withARequestQueuedBehind }

    static let sources = (2...21).map { "127.0.0.\($0)" }
    static let answerWithin = 3.0   // 20 addresses x 16 = 320 tries for 256 slots

    @Test func afterTheLimitIsFilledAndReleasedTheServerAnswersWithinASecondEveryRound() throws {
        let f = try RemoteFixture()
        let limit = HTTPServer.Configuration(address: "", port: 0).connectionLimit
        let perAddress = HTTPServer.Configuration(address: "", port: 0).connectionsPerAddress
        #expect(perAddress * 4 <= limit, "one address, or a few, cannot hold every slot")
        let started = monotonicNow()
        var rounds = 0
        var failures: [String] = []
        var peak = 0
        while monotonicNow() - started < 45, failures.count < 3 {
            let hold = Hold.allCases[rounds % Hold.allCases.count]
            rounds += 1
            let filled = Locked(false)
            let outcome = try #require(try f.whileServing({ port -> String? in
                // Fill: every source opens connections until it is refused or has perAddress + 2.
                var sockets: [Int32] = []
                for source in Self.sources {
                    for _ in 0..<(perAddress + 2) {
                        guard let fd = LoopbackClient.connectSocket(port: port, source: source, timeout: 2) else { break }
                        sockets.append(fd)
                    }
                }
                usleep(300_000)
                filled.withLock { $0 = true }
                var queued: WorkerThread?
                let queuedReply = Locked<HTTPReply?>(nil)
                switch hold {
                case .idle:
                    usleep(300_000)
                case .trickling:
                    for byte in Array("GET".utf8) {
                        var next = byte
                        for fd in sockets { _ = Glibc.send(fd, &next, 1, Int32(MSG_NOSIGNAL)) }
                        usleep(150_000)
                    }
                case .withARequestQueuedBehind:
                    queued = WorkerThread(name: "queued") {
                        let reply = LoopbackClient.send(port: port, method: "GET", path: "/api/status",
                                                        headers: [("Authorization", "Bearer \(RemoteFixture.token)")], source: "127.0.0.1", timeout: 3)
                        queuedReply.withLock { $0 = reply }
                    }
                    usleep(300_000)
                }
                for fd in sockets { close(fd) }
                let released = monotonicNow()
                queued?.join()
                if let queued = queued.map({ _ in queuedReply.withLock { $0 } }), queued?.status != 200 {
                    return "\(hold): the request queued behind the held slots got \(queued.map { "\($0.status)" } ?? "no answer") within \(String(format: "%.1f", monotonicNow() - released)) s of the release"
                }
                // The wedge never answered again (the probe waited 27 s). An idle machine answers
                // within 1 s; 3 s leaves room for a CI machine at load 14, where one round in ~20
                // took just over a second with the fix in place.
                let fresh = monotonicNow()
                let reply = LoopbackClient.send(port: port, method: "GET", path: "/api/status",
                                                headers: [("Authorization", "Bearer \(RemoteFixture.token)")], timeout: Self.answerWithin)
                guard reply?.status == 200 else { return "\(hold): no answer within \(Self.answerWithin) s after the release (\(sockets.count) connections held)" }
                let took = monotonicNow() - fresh
                return took < Self.answerWithin ? "" : "\(hold): answered after \(took) s"
            }, eachTurn: {
                if filled.withLock({ $0 }) { peak = max(peak, f.service.server.openConnections) }
            }) ?? "the round did not end")
            if !outcome.isEmpty { failures.append("round \(rounds): \(outcome)") }
            // Let the server see every close before the next round fills it again.
            _ = try f.whileServing({ _ in usleep(50_000) }, until: { f.service.server.openConnections == 0 })
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(rounds >= 15, "\(rounds) rounds in 45 s")
        #expect(peak >= limit - 1, "the limit was reached: at most \(peak) of \(limit) connections were open")
        print("connection limit: \(rounds) rounds, peak \(peak) of \(limit) connections, \(failures.count) failed")
    }

    @Test func oneAddressGetsAtMostItsShareOfTheSlots() throws {
        let f = try RemoteFixture()
        let perAddress = HTTPServer.Configuration(address: "", port: 0).connectionsPerAddress
        let held = Locked<[Int32]>([])
        var open = 0
        _ = try f.whileServing({ port in
            for _ in 0..<(perAddress * 3) {
                if let fd = LoopbackClient.connectSocket(port: port, source: "127.0.0.77", timeout: 2) { held.withLock { $0.append(fd) } }
            }
            usleep(500_000)
        }, eachTurn: { open = max(open, f.service.server.openConnections) })
        #expect(open == perAddress, "\(open) connections from one address")
        let reply = try #require(try f.request("GET", "/api/status"))
        #expect(reply.status == 200, "another address still gets in")
        for fd in held.withLock({ $0 }) { close(fd) }
    }

    @Test func aClientTricklingItsHeadersIsCutOffWithinSeconds() throws {
        let f = try RemoteFixture()
        let headerSeconds = HTTPServer.Configuration(address: "", port: 0).headerSeconds
        let closedAfter = try #require(try f.whileServing { port -> Double in
            guard let fd = LoopbackClient.connectSocket(port: port, timeout: 30) else { return -1 }
            defer { close(fd) }
            let start = monotonicNow()
            let request = Array("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
            var i = 0
            while monotonicNow() - start < 30 {
                // A byte every 0.5 s: never idle long enough for the idle timeout.
                var next = request[i % request.count]
                if Glibc.send(fd, &next, 1, Int32(MSG_NOSIGNAL)) <= 0 { break }
                var buffer = [UInt8](repeating: 0, count: 64)
                var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if Glibc.poll(&poll, 1, 500) > 0, recv(fd, &buffer, 64, 0) <= 0 { break }
                i += 1
            }
            return monotonicNow() - start
        })
        #expect(closedAfter > 0 && closedAfter < headerSeconds + 2, "closed after \(closedAfter) s")
    }
}
