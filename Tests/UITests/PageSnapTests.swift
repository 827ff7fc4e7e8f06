import Testing
@testable import UI

@Suite struct PageSnapTests {
    @Test func slowReleaseGoesToTheNearestPage() {
        #expect(PageSnap.targetPage(offset: 120, pageSize: 400, velocity: 50, startPage: 0, pageCount: 5) == 0)
        #expect(PageSnap.targetPage(offset: 220, pageSize: 400, velocity: 0, startPage: 0, pageCount: 5) == 1)
        #expect(PageSnap.targetPage(offset: 610, pageSize: 400, velocity: -100, startPage: 2, pageCount: 5) == 2)
    }

    @Test func flickGoesToTheNextPageBeforeHalfway() {
        #expect(PageSnap.targetPage(offset: 60, pageSize: 400, velocity: 900, startPage: 0, pageCount: 5) == 1)
        #expect(PageSnap.targetPage(offset: 740, pageSize: 400, velocity: -900, startPage: 2, pageCount: 5) == 1)
        // A flick against the drag direction returns to where it started.
        #expect(PageSnap.targetPage(offset: 1000, pageSize: 400, velocity: -900, startPage: 2, pageCount: 5) == 2)
    }

    @Test func neverMoreThanOnePageAndNeverOutside() {
        #expect(PageSnap.targetPage(offset: 1300, pageSize: 400, velocity: 5000, startPage: 2, pageCount: 5) == 3)
        #expect(PageSnap.targetPage(offset: 1650, pageSize: 400, velocity: 5000, startPage: 4, pageCount: 5) == 4)
        #expect(PageSnap.targetPage(offset: -50, pageSize: 400, velocity: -5000, startPage: 0, pageCount: 5) == 0)
    }
}
