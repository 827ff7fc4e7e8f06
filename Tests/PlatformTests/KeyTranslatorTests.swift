import Testing
@testable import Platform

@Suite("Keys")
struct KeyTranslatorTests {
    @Test func navigationKeys() {
        var t = KeyTranslator()
        #expect(t.translate(code: 105, pressed: true) == .left)
        #expect(t.translate(code: 106, pressed: true) == .right)
        #expect(t.translate(code: 103, pressed: true) == .up)
        #expect(t.translate(code: 108, pressed: true) == .down)
        #expect(t.translate(code: 28, pressed: true) == .enter)
        #expect(t.translate(code: 96, pressed: true) == .enter)
        #expect(t.translate(code: 1, pressed: false) == .escape)
        #expect(t.translate(code: 16, pressed: true) == .q)
        #expect(t.translate(code: 30, pressed: true) == .other(30))
    }

    @Test func ctrlAltBackspaceIsTheQuitChordOnlyWithBothModifiersHeld() {
        var t = KeyTranslator()
        #expect(t.translate(code: 14, pressed: true) == .other(14))
        #expect(t.translate(code: 29, pressed: true) == nil)      // left ctrl
        #expect(t.translate(code: 14, pressed: true) == .other(14))
        #expect(t.translate(code: 100, pressed: true) == nil)     // right alt
        #expect(t.translate(code: 14, pressed: true) == .quitChord)
        #expect(t.translate(code: 29, pressed: false) == nil)
        #expect(t.translate(code: 14, pressed: true) == .other(14))
    }
}
