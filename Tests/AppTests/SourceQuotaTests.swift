@testable import PhotoKioskApp
import Testing

/// Issue 34, item 2: over its quota a source keeps the newest photos by date taken that fit.
@Suite struct SourceQuotaTests {
    typealias Photo = SourceQuota.Photo

    @Test func theNewestThatFitAreKeptWithoutGaps() {
        let photos = [
            Photo(path: "a.jpg", size: 40, date: 100),
            Photo(path: "b.jpg", size: 40, date: 300),
            Photo(path: "c.jpg", size: 50, date: 200),
            Photo(path: "d.jpg", size: 10, date: 50),
        ]
        let (kept, leftOut) = SourceQuota.choose(photos, quotaBytes: 100)
        #expect(kept.map(\.path) == ["b.jpg", "c.jpg"])
        // a.jpg does not fit; d.jpg would, but it is older than a left-out photo: kept photos are
        // every photo after a moment, not a size puzzle.
        #expect(leftOut.map(\.path) == ["a.jpg", "d.jpg"])
        #expect(SourceQuota.choose(photos, quotaBytes: 1000).leftOut.isEmpty)
        #expect(SourceQuota.choose(photos, quotaBytes: 0).kept.isEmpty)
    }

    @Test func equalDatesAreOrderedByName() {
        let photos = [Photo(path: "b.jpg", size: 1, date: 7), Photo(path: "a.jpg", size: 1, date: 7)]
        #expect(SourceQuota.choose(photos, quotaBytes: 1).kept.map(\.path) == ["a.jpg"])
    }

    @Test func theLeftOutListReadsBack() {
        let photos = [Photo(path: "2024/x y.jpg", size: 12, date: -5), Photo(path: "tab.jpg", size: 1, date: 9)]
        #expect(SourceQuota.parseList(SourceQuota.listText(photos)) == photos)
        #expect(SourceQuota.parseList("junk\n1\t2\n") == [])
    }

    /// The filter names exactly the file, whatever glob characters its name has.
    @Test func filterRulesEscapeGlobCharacters() {
        let text = SourceQuota.excludeText([Photo(path: "a/[1]*{x}?.jpg", size: 1, date: 1)])
        #expect(text == "- /a/\\[1\\]\\*\\{x\\}\\?.jpg\n")
    }
}
