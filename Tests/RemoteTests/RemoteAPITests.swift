import Basics
import Glibc
import Graphics
import Imaging
import PhotoKioskApp
import Platform
@testable import Remote
import RemoteServer
import SystemAccess
import Testing
import TestSupport

/// Every endpoint over a real loopback socket, against a headless KioskApp.
@Suite(.serialized) struct RemoteAPITests {
    @Test func everyRequestWithoutAValidTokenIsRefused() throws {
        let f = try RemoteFixture()
        let none = try #require(try f.request("GET", "/api/status", authorized: false))
        #expect(none.status == 401)
        #expect(none.text.contains("a valid token is needed"))
        #expect(none.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        let wrong = try #require(try f.request("POST", "/api/next", headers: [("Authorization", "Bearer test-token-0123456789abcdeX")], authorized: false))
        #expect(wrong.status == 401)
        let cookie = try #require(try f.request("GET", "/api/photos", headers: [("Cookie", "pk_session=0123")], authorized: false))
        #expect(cookie.status == 401)
        let upload = try #require(try f.request("DELETE", "/api/photos/photo1.jpg", authorized: false))
        #expect(upload.status == 401)
        let page = try #require(try f.request("GET", "/", authorized: false))
        #expect(page.status == 401)
        #expect(page.text.contains("<form method=\"post\" action=\"/login\">"), "the page asks for the token")
        #expect(f.names(in: f.library).count == 3, "nothing was deleted")
    }

    @Test func theLoginFormSetsASessionCookieThatOpensThePageAndTheAPI() throws {
        let f = try RemoteFixture()
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        let bad = try #require(try f.request("POST", "/login", body: Array("token=nope".utf8), headers: form, authorized: false))
        #expect(bad.status == 401)
        #expect(bad.headers["set-cookie"] == nil)
        let good = try #require(try f.request("POST", "/login", body: Array("token=\(RemoteFixture.token)".utf8), headers: form, authorized: false))
        #expect(good.status == 303)
        let setCookie = try #require(good.headers["set-cookie"])
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
        let session = String(setCookie.split(separator: ";")[0])
        let page = try #require(try f.request("GET", "/", headers: [("Cookie", session)], authorized: false))
        #expect(page.status == 200)
        #expect(page.text.contains("id=\"drop\""), "the main page with its upload area")
        let status = try #require(try f.request("GET", "/api/status", headers: [("Cookie", session)], authorized: false))
        #expect(status.status == 200)
    }

    @Test func repeatedFailuresFromOneAddressAreSlowedDown() throws {
        var policy = FailureThrottle.Policy()
        policy.freeFailures = 2
        policy.firstDelay = 0.2
        let f = try RemoteFixture(throttle: policy)
        for _ in 0..<3 {
            let reply = try #require(try f.request("GET", "/api/status", authorized: false))
            #expect(reply.status == 401)
        }
        // The third failure waited on a loop timer (the connection suspended), not in a sleep.
        #expect(f.service.api.authenticator.throttle.delay(afterFailures: 3) == 0.2)
        #expect(f.service.api.authenticator.throttle.rememberedAddresses == 1)
        let ok = try #require(try f.request("GET", "/api/status"))
        #expect(ok.status == 200)
        #expect(f.service.api.authenticator.throttle.rememberedAddresses == 0, "a success forgets the failures")
    }

    @Test func statusDescribesWhatTheKioskShows() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.request("GET", "/api/status"))
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "application/json")
        for field in [#""screen":"grid""#, #""library_size":3"#, #""version":"test""#, #""screen_on":true"#,
                      #""paused":false"#, #""uploads":"ok""#, #""upload_free_bytes":"#, #""uptime_seconds":"#,
                      #""storage":"ok""#, #""storage_failed_writes":0"#] {
            #expect(reply.text.contains(field), "\(field) in \(reply.text)")
        }
        let wrongMethod = try #require(try f.request("POST", "/api/status"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "GET")
        let unknown = try #require(try f.request("GET", "/api/nothing"))
        #expect(unknown.status == 404)
        #expect(unknown.text.contains(#""error":"#))
    }

    @Test func commandsGoThroughTheKiosksDoor() throws {
        let f = try RemoteFixture()
        let onGrid = try #require(try f.request("POST", "/api/next"))
        #expect(onGrid.status == 409, "the grid has no next photo")
        #expect(onGrid.text.contains("error"))
        let start = try #require(try f.request("POST", "/api/slideshow", body: Array(#"{"on": true}"#.utf8)))
        #expect(start.status == 200)
        #expect(f.app.status.isSlideshowRunning)
        let first = f.app.status.photo
        let next = try #require(try f.request("POST", "/api/next"))
        #expect(next.status == 200)
        #expect(f.app.status.photo != first)
        let previous = try #require(try f.request("POST", "/api/previous"))
        #expect(previous.status == 200)
        #expect(f.app.status.photo == first)
        let pause = try #require(try f.request("POST", "/api/pause"))
        #expect(pause.text.contains(#""paused":true"#))
        #expect(f.app.status.isPaused)
        let resume = try #require(try f.request("POST", "/api/resume"))
        #expect(resume.status == 200)
        #expect(!f.app.status.isPaused)
        let off = try #require(try f.request("POST", "/api/screen", body: Array(#"{"on":false}"#.utf8)))
        #expect(off.status == 200)
        #expect(off.text.contains(#""screen":"blank""#))
        #expect(!f.app.status.isScreenOn)
        let on = try #require(try f.request("POST", "/api/screen", body: Array(#"{ "on" : true }"#.utf8)))
        #expect(on.status == 200)
        #expect(f.app.status.isScreenOn)
        let garbage = try #require(try f.request("POST", "/api/screen", body: Array("on please".utf8)))
        #expect(garbage.status == 400)
        #expect(garbage.text.contains(#"{\"on\": true}"#))
        let huge = try #require(try f.request("POST", "/api/screen", body: [UInt8](repeating: 32, count: 5000)))
        #expect(huge.status == 413)
        let get = try #require(try f.request("GET", "/api/next"))
        #expect(get.status == 405)
    }

    @Test func theScreenIsAPNGOfTheDisplay() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.request("GET", "/api/screen.png"))
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "image/png")
        let info = try ImageDecoder.probe(bytes: reply.body)
        #expect(info.format == .png && info.pixelWidth == 320 && info.pixelHeight == 240)
        let shown = try ImageDecoder.decode(bytes: reply.body).bitmap
        let frame = f.app.host.display.frameBuffer
        #expect(shown.pixel(x: 160, y: 120) & 0xFFFFFF == frame.pixel(x: 160, y: 120) & 0xFFFFFF)
    }

    @Test func photosArePagedWithNamesSizesAndDates() throws {
        let f = try RemoteFixture()
        let first = try #require(try f.request("GET", "/api/photos?page=1&per_page=2"))
        #expect(first.status == 200)
        #expect(first.text.contains(#""total":3"#))
        #expect(first.text.contains(#""name":"photo1.jpg""#) && first.text.contains(#""name":"photo2.jpg""#))
        #expect(!first.text.contains("photo3.jpg"))
        #expect(first.text.contains(#""bytes":"#) && first.text.contains(#""modified":"#))
        #expect(first.text.contains(#""in_upload_folder":false"#))
        let second = try #require(try f.request("GET", "/api/photos?page=2&per_page=2"))
        #expect(second.text.contains("photo3.jpg") && !second.text.contains("photo1.jpg"))
        let bad = try #require(try f.request("GET", "/api/photos?per_page=0"))
        #expect(bad.status == 400)
    }

    @Test func anUploadedPhotoIsKeptAndAppearsInTheGrid() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.upload([(Array("holiday.jpg".utf8), f.photoBytes)]))
        #expect(reply.status == 201, "\(reply.text)")
        #expect(reply.text.contains(#""name":"holiday.jpg""#))
        #expect(f.names(in: f.uploads) == ["holiday.jpg"])
        #expect(readFile(RawPath(f.uploads + "/holiday.jpg")) == f.photoBytes)
        _ = try f.whileServing({ _ in () }, until: { f.app.photos.count == 4 })
        #expect(f.app.photos.count == 4, "the folder watch brought it into the grid")
        let list = try #require(try f.request("GET", "/api/photos"))
        #expect(list.text.contains(#""url":"/api/photos/holiday.jpg""#))
        let deleted = try #require(try f.request("DELETE", "/api/photos/holiday.jpg"))
        #expect(deleted.status == 200)
        #expect(f.names(in: f.uploads).isEmpty)
    }

    @Test func anUploadThatIsNotAPhotoIsRefusedAndNothingStays() throws {
        let f = try RemoteFixture()
        let text = try #require(try f.upload([(Array("notes.jpg".utf8), Array("just some words, not a JPEG at all".utf8))]))
        #expect(text.status == 415)
        #expect(text.text.contains("not a photo"))
        // Right magic bytes, broken header: refused by the probe after the whole file arrived.
        let broken = try #require(try f.upload([(Array("broken.jpg".utf8), Array(f.photoBytes.prefix(40)))]))
        #expect(broken.status == 415)
        let empty = try #require(try f.upload([(Array("empty.jpg".utf8), [])]))
        #expect(empty.status == 415)
        let fieldOnly = Array("--\(MultipartBody.boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--\(MultipartBody.boundary)--\r\n".utf8)
        let noFile = try #require(try f.request("POST", "/api/photos", body: fieldOnly, headers: [MultipartBody.contentType]))
        #expect(noFile.status == 400)
        let json = try #require(try f.request("POST", "/api/photos", body: Array("{}".utf8), headers: [("Content-Type", "application/json")]))
        #expect(json.status == 403, "an upload is multipart/form-data")
        #expect(f.names(in: f.uploads).isEmpty, "no file and no temporary file left")
    }

    @Test func aHostileNameBecomesASafeBaseName() throws {
        let f = try RemoteFixture()
        let hostile: [UInt8] = Array("../../evilname.jpg".utf8)
        let reply = try #require(try f.upload([(hostile, f.photoBytes)]))
        #expect(reply.status == 201, "\(reply.text)")
        #expect(f.names(in: f.uploads) == ["evilname.jpg"])
        #expect(!f.names(in: f.scratch.path.description).contains("evilname.jpg"), "nothing outside the upload folder")
        let dots = try #require(try f.upload([(Array("..".utf8), f.photoBytes), (Array("/etc/.hidden".utf8), f.photoBytes)]))
        #expect(dots.status == 201, "\(dots.text)")
        #expect(f.names(in: f.uploads) == ["evilname.jpg", "hidden.jpeg", "upload.jpeg"])
        let escape = try #require(try f.request("DELETE", "/api/photos/..%2Flibrary%2Fphoto1.jpg"))
        #expect(escape.status == 400)
        let outside = try #require(try f.request("DELETE", "/api/photos/photo1.jpg"))
        #expect(outside.status == 404, "a library photo outside the upload folder cannot be deleted")
        #expect(f.names(in: f.library).count == 3)
    }

    @Test func anOversizedUploadIsRefusedWithoutLeavingAFile() throws {
        let f = try RemoteFixture(maximumFileBytes: 4096)
        let big = try RemoteFixture.jpeg(color: .red, width: 600, height: 600)
        #expect(big.count > 4096)
        let reply = try #require(try f.upload([(Array("big.jpg".utf8), big), (Array("small.jpg".utf8), f.photoBytes)]))
        #expect(reply.status == 207, "one kept, one refused: \(reply.text)")
        #expect(reply.text.contains("larger than the limit"))
        #expect(f.names(in: f.uploads) == ["small.jpg"])
        let alone = try #require(try f.upload([(Array("big.jpg".utf8), big)]))
        #expect(alone.status == 413)
    }

    @Test func theDiskReserveRefusesAnUploadThatWouldEatIntoIt() throws {
        let free = UploadFolder(path: "/tmp").availableBytes() ?? 0
        let f = try RemoteFixture(reserveBytes: free + (1 << 40))
        let reply = try #require(try f.upload([(Array("a.jpg".utf8), f.photoBytes)]))
        #expect(reply.status == 507)
        #expect(reply.text.contains("disk space"))
        #expect(f.names(in: f.uploads).isEmpty)
    }

    @Test func aReadOnlyUploadFolderIsRefusedClearly() throws {
        let scratch = ScratchDirectory()
        try withReadOnlyFolder("readonly", in: scratch) { readOnly in
            let f = try RemoteFixture(uploadFolder: readOnly)
            let reply = try #require(try f.upload([(Array("a.jpg".utf8), f.photoBytes)]))
            #expect(reply.status == 403)
            #expect(reply.text.contains("uploads are refused"))
            let status = try #require(try f.request("GET", "/api/status"))
            #expect(status.text.contains(#""uploads":"refused: "#))
        }
    }

    /// Issue 33 item 2: the phone page's status says storage is failing, and clears when an
    /// upload (a write that reached the disk) works again.
    @Test func statusSaysStorageIsFailingUntilAWriteWorks() throws {
        let f = try RemoteFixture()
        f.storageHealth.recordFailure(path: f.uploads + "/.upload-0123456789abcdef.part", errno: .ioError)
        f.storageHealth.recordFailure(path: "/var/lib/photokiosk/resume", errno: .ioError)
        let failing = try #require(try f.request("GET", "/api/status"))
        #expect(failing.text.contains(#""storage":"storage failing since "#), "\(failing.text)")
        #expect(failing.text.contains("Input/output error in \(f.uploads) (2 failed writes)"), "\(failing.text)")
        #expect(failing.text.contains(#""storage_failed_writes":2"#), "\(failing.text)")
        let reply = try #require(try f.upload([(Array("after.jpg".utf8), f.photoBytes)]))
        #expect(reply.status == 201)
        let ok = try #require(try f.request("GET", "/api/status"))
        #expect(ok.text.contains(#""storage":"ok""#), "\(ok.text)")
        #expect(ok.text.contains(#""storage_failed_writes":0"#))
    }

    @Test func twoUploadsOfTheSameNameAtOnceBothKeepTheirPhoto() throws {
        let f = try RemoteFixture()
        let other = try RemoteFixture.jpeg(color: .blue)
        var formA = MultipartBody()
        formA.addFile(name: Array("same.jpg".utf8), data: f.photoBytes)
        var formB = MultipartBody()
        formB.addFile(name: Array("same.jpg".utf8), data: other)
        let bodies = [formA.finished, formB.finished]
        let replies = try #require(try f.whileServing { port -> [Int] in
            let statuses = Locked<[Int]>([])
            let workers = bodies.map { body in
                WorkerThread(name: "upload") {
                    let reply = LoopbackClient.send(port: port, method: "POST", path: "/api/photos",
                                                    headers: [("Authorization", "Bearer \(RemoteFixture.token)"), MultipartBody.contentType], body: body)
                    statuses.withLock { $0.append(reply?.status ?? 0) }
                }
            }
            for worker in workers { worker.join() }
            return statuses.withLock { $0 }
        })
        #expect(replies == [201, 201])
        #expect(f.names(in: f.uploads) == ["same-2.jpg", "same.jpg"])
        let kept = Set([readFile(RawPath(f.uploads + "/same.jpg")), readFile(RawPath(f.uploads + "/same-2.jpg"))])
        #expect(kept == Set([f.photoBytes, other]), "neither overwrote the other")
    }

    /// Sends `body` as an upload, holds it open after `cutAfter` bytes until the server has its
    /// temporary file (up to 30 s), then sends `sendBeforeClose` more bytes and closes the
    /// connection. True when the temporary file was seen.
    func cutUploadOnceItsTemporaryFileExists(_ f: RemoteFixture, body: [UInt8], cutAfter: Int,
                                             sendBeforeClose: Int = 0) throws -> Bool {
        let uploads = f.uploads
        return (try f.whileServing({ port -> Bool in
            let seen = Locked(false)
            _ = LoopbackClient.send(port: port, method: "POST", path: "/api/photos",
                                    headers: [("Authorization", "Bearer \(RemoteFixture.token)"), MultipartBody.contentType],
                                    body: body, cutAfter: cutAfter, beforeCut: {
                for _ in 0..<3000 where !seen.withLock({ $0 }) {
                    if (directoryEntryNames(RawPath(uploads)) ?? []).contains(where: { $0.starts(with: Array(".upload-".utf8)) }) {
                        seen.withLock { $0 = true }
                    } else {
                        usleep(10_000)
                    }
                }
            }, sendBeforeClose: sendBeforeClose)
            return seen.withLock { $0 }
        }) ?? false)
    }

    @Test func aConnectionCutMidUploadLeavesNoFile() throws {
        let f = try RemoteFixture()
        let big = try RemoteFixture.jpeg(color: .red, width: 300, height: 300)
        var form = MultipartBody()
        form.addFile(name: Array("cut.jpg".utf8), data: big)
        let body = form.finished
        #expect(try cutUploadOnceItsTemporaryFileExists(f, body: body, cutAfter: 400 + body.count / 2),
                "the upload had started when the connection was cut")
        _ = try f.whileServing({ _ in () }, until: { f.names(in: f.uploads).isEmpty })
        #expect(f.names(in: f.uploads).isEmpty, "no half photo and no temporary file left")
    }

    /// The last bytes and the close in one burst: libmicrohttpd's edge-triggered epoll may see
    /// one event and miss the close; then the idle timeout (1 s here, 20 s in `run`) ends it.
    @Test func anUploadCutInOneBurstIsCleanedUpAtTheIdleTimeout() throws {
        let f = try RemoteFixture(idleTimeout: 1)
        var form = MultipartBody()
        form.addFile(name: Array("burst.jpg".utf8), data: try RemoteFixture.jpeg(color: .red, width: 300, height: 300))
        let body = form.finished
        #expect(try cutUploadOnceItsTemporaryFileExists(f, body: body, cutAfter: 400 + body.count / 4,
                                                         sendBeforeClose: body.count / 4),
                "the upload had started when the connection was cut")
        _ = try f.whileServing({ _ in () }, until: { f.names(in: f.uploads).isEmpty })
        #expect(f.names(in: f.uploads).isEmpty, "the temporary file went with the connection")
    }

    @Test func unfinishedUploadsOfAnEarlierRunAreRemovedAtStart() throws {
        let f = try RemoteFixture(before: { uploads in
            writeFile(RawPath(uploads + "/.upload-0123456789abcdef.part"), [0xFF, 0xD8, 0xFF])
            writeFile(RawPath(uploads + "/.upload-notes.txt"), [1])
        })
        #expect(f.names(in: f.uploads) == [".upload-notes.txt"], "only the server's own temporary names are removed")
    }

    @Test func aHundredConcurrentStatusRequestsWhileTheKioskDraws() throws {
        let f = try RemoteFixture()
        _ = f.app.perform(.slideshow(on: true))
        let framesBefore = f.app.host.framesPresented
        let statuses = try #require(try f.whileServing { port -> [Int] in
            let results = Locked<[Int]>([])
            // From ten addresses (127.0.0.2 to .11), ten each: within each address's connection cap.
            let workers = (0..<100).map { i in
                WorkerThread(name: "status") {
                    let reply = LoopbackClient.send(port: port, method: "GET", path: "/api/status",
                                                    headers: [("Authorization", "Bearer \(RemoteFixture.token)")], source: "127.0.0.\(2 + i % 10)")
                    results.withLock { $0.append(reply?.status ?? 0) }
                }
            }
            for worker in workers { worker.join() }
            return results.withLock { $0 }
        })
        #expect(statuses.count == 100)
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.filter { $0 != 200 })")
        #expect(f.app.host.framesPresented > framesBefore, "the slideshow kept drawing while the requests were served")
    }
}
