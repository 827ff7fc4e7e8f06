import Glibc
import PhotoKioskApp
@testable import Remote
import RemoteServer
import Testing
import TestSupport

/// Issue 30 item 5: uploads work out of the box when the photo folders are read-only.
@Suite(.serialized) struct UploadFolderChoiceTests {
    @Test func readOnlyPhotoFoldersSendUploadsToAFolderThatJoinsTheLibrary() throws {
        let scratch = ScratchDirectory()
        withReadOnlyFolder("stick", in: scratch) { stick in
            #expect(UploadFolder(path: stick).unwritableReason() != nil, "the stick is read-only")
            let state = scratch.path.description + "/state"
            let choice = UploadFolderChoice.choose(configured: nil, folders: [stick], stateDirectory: state)
            #expect(choice.uploadFolder == state + "/uploads")
            #expect(choice.folders == [stick, state + "/uploads"], "the fallback is part of the library")
            #expect(UploadFolder(path: state + "/uploads").unwritableReason() == nil, "made, and writable")
            let again = UploadFolderChoice.choose(configured: nil, folders: choice.folders, stateDirectory: state)
            #expect(again.folders == choice.folders, "not added twice")
        }
    }

    @Test func aWritablePhotoFolderOrAConfiguredOneIsKept() {
        let writable: (String) -> Bool = { $0 != "/ro" }
        #expect(UploadFolderChoice.choose(configured: nil, folders: ["/ro", "/rw"], stateDirectory: "/s", isWritable: writable, make: { _ in true })
                == .init(uploadFolder: "/rw", folders: ["/ro", "/rw"]))
        #expect(UploadFolderChoice.choose(configured: "/mine", folders: ["/ro"], stateDirectory: "/s", isWritable: writable, make: { _ in true })
                == .init(uploadFolder: "/mine", folders: ["/ro"]))
        #expect(UploadFolderChoice.choose(configured: nil, folders: ["/ro"], stateDirectory: "/s/", isWritable: { _ in false }, make: { _ in false })
                == .init(uploadFolder: "/ro", folders: ["/ro"]), "nowhere to write: the status says why uploads are refused")
    }

    @Test func theUploadAnswerSaysWhereThePhotosWent() throws {
        let f = try RemoteFixture()
        let reply = try #require(try f.upload([(Array("where.jpg".utf8), f.photoBytes)]))
        #expect(reply.status == 201)
        #expect(JSONTestValue.parse(reply.body)?["folder"]?.string == f.uploads, "\(reply.text)")
    }
}
