import Imaging
import PhotoKioskApp
@testable import Remote
import RemoteServer
import Testing

/// The pure pieces: safe names, the failure throttle on a virtual clock, the token compare, JSON.
@Suite struct RemoteLogicTests {
    func safe(_ name: String, _ format: ImageFormat? = .jpeg) -> String {
        String(decoding: UploadName.safe(Array(name.utf8), format: format), as: UTF8.self)
    }

    @Test("clips keep their names when the extension fits the container, and get one when they have none")
    func clipNames() {
        for (name, format) in [("a.mp4", ImageFormat.mp4Clip), ("IMG_1.MOV", .mp4Clip), ("a.m4v", .mp4Clip), ("a.mkv", .matroskaClip),
                               ("a.webm", .matroskaClip)] {
            let type = PhotoFileType(fileName: Array(name.utf8))
            #expect(type.map { UploadName.extension($0, fits: format) } == true, "\(name)")
        }
        #expect(!UploadName.extension(.mp4, fits: .matroskaClip))
        #expect(!UploadName.extension(.webm, fits: .mp4Clip))
        #expect(!UploadName.extension(.jpeg, fits: .mp4Clip))
        #expect(safe("holiday", .mp4Clip) == "holiday.mp4")
        #expect(safe("holiday", .matroskaClip) == "holiday.mkv")
    }

    @Test func namesAreReducedToAPlainBaseName() {
        #expect(safe("beach.jpg") == "beach.jpg")
        #expect(safe("../../etc/passwd") == "passwd.jpeg")
        #expect(safe("C:\\Users\\me\\IMG_1.JPG") == "IMG_1.JPG")
        #expect(safe("..") == "upload.jpeg")
        #expect(safe(".hidden.png", .png) == "hidden.png")
        #expect(safe("a\u{1}b\nc\u{7F}.jpg") == "abc.jpg")
        #expect(safe("photo.gif", .png) == "photo.gif.png", "the library lists it only with a photo extension")
        #expect(safe("  . ") == "upload.jpeg")
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67]   // "café.jpg" in Latin-1
        #expect(UploadName.safe(latin1, format: .jpeg) == latin1, "bytes that are not UTF-8 are kept")
        let long = UploadName.safe(Array((String(repeating: "é", count: 300) + ".jpg").utf8), format: .jpeg)
        #expect(long.count <= UploadName.maximumBytes && long.suffix(4) == Array(".jpg".utf8))
        #expect(String(validating: long, as: UTF8.self) != nil, "cut between characters")
    }

    @Test func aTakenNameGetsANumberBeforeItsExtension() {
        let name = Array("beach.jpg".utf8)
        #expect(UploadName.candidate(name, attempt: 1) == name)
        #expect(UploadName.candidate(name, attempt: 2) == Array("beach-2.jpg".utf8))
        #expect(UploadName.candidate(Array("noext".utf8), attempt: 3) == Array("noext-3".utf8))
    }

    @Test func failuresAreFreeAtFirstThenDoubleUpToACap() {
        var throttle = FailureThrottle()
        let delays = (0..<10).map { i in throttle.recordFailure(from: "10.0.0.2", now: Double(i)) }
        #expect(delays == [0, 0, 0, 1, 2, 4, 8, 10, 10, 10])
        #expect(throttle.recordFailure(from: "10.0.0.3", now: 10) == 0, "another address is not slowed")
        throttle.recordSuccess(from: "10.0.0.2")
        #expect(throttle.recordFailure(from: "10.0.0.2", now: 11) == 0, "a success forgets")
        for i in 0..<5 { _ = throttle.recordFailure(from: "10.0.0.4", now: 20 + Double(i)) }
        #expect(throttle.recordFailure(from: "10.0.0.4", now: 25 + 900) == 0, "quiet for 15 minutes: fresh start")
    }

    @Test func theThrottleRemembersABoundedNumberOfAddresses() {
        var policy = FailureThrottle.Policy()
        policy.maximumAddresses = 10
        var throttle = FailureThrottle(policy: policy)
        for i in 0..<100 { _ = throttle.recordFailure(from: "10.0.1.\(i)", now: Double(i)) }
        #expect(throttle.rememberedAddresses == 10)
    }

    @Test func tokensCompareByEveryByte() {
        let token = Array("abcdefghijklmnop".utf8)
        #expect(RemoteAuthenticator.constantTimeEquals(token, token))
        #expect(!RemoteAuthenticator.constantTimeEquals(Array("abcdefghijklmnoq".utf8), token))
        #expect(!RemoteAuthenticator.constantTimeEquals(Array("abcdefghijklmno".utf8), token))
        #expect(!RemoteAuthenticator.constantTimeEquals(token + [0x61], token))
        #expect(!RemoteAuthenticator.constantTimeEquals([], token))
    }

    @Test func jsonEscapesWhatItMust() {
        let value = JSONValue.object([("a", .string("q\"b\\n\n\u{1}")), ("n", .null), ("list", .array([.integer(1), .bool(false)]))])
        #expect(value.text == #"{"a":"q\"b\\n\n\u0001","n":null,"list":[1,false]}"#)
        // Safe inside a page's script too (the MQTT messages use the same writer).
        #expect(JSONValue.string("\u{7F}\u{2028}\u{2029}é").text == #""\u007f\u2028\u2029é""#)
        #expect(JSONValue.integer(Int64.max).bytes == Array("9223372036854775807".utf8))
        #expect(percentEncoded(Array("a b/é".utf8)) == "a%20b%2F%C3%A9")
        #expect(RemoteAPI.parseOnSwitch(Array(" {\n\"on\" : false } ".utf8)) == false)
        #expect(RemoteAPI.parseOnSwitch(Array(#"{"on":"yes"}"#.utf8)) == nil)
    }
}
