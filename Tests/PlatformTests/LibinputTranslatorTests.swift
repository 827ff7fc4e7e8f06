import Graphics
import Testing
@testable import Platform

/// libinput's events as values through the translation LibinputSource uses: slots, lifts with
/// no finger down, cancellation, the mouse as a finger, keys, rotation.
@Suite struct LibinputTranslatorTests {
    let panel = ScreenMapping(deviceWidth: 800, deviceHeight: 480)

    func touch(_ event: InputEvent) -> (slot: Int, phase: TouchPhase, location: Point)? {
        guard case let .touch(slot, phase, location, _) = event else { return nil }
        return (slot, phase, location)
    }

    @Test func slotsAreFingersThatKeepTheirOwnPositions() {
        var t = LibinputTranslator(mapping: panel)
        #expect(t.translate(.touchDown(slot: 0, x: 10, y: 20, time: 1)) == [.touch(slot: 0, phase: .down, location: Point(x: 10, y: 20), time: 1)])
        #expect(t.translate(.touchDown(slot: 1, x: 300, y: 200, time: 1)).count == 1)
        #expect(t.translate(.touchFrame(time: 1)) == [.frame(time: 1)])
        #expect(t.translate(.touchMotion(slot: 1, x: 310, y: 205, time: 1.01)) == [.touch(slot: 1, phase: .motion, location: Point(x: 310, y: 205), time: 1.01)])
        // The lift carries each finger's own last position (libinput gives none with an up).
        #expect(t.translate(.touchUp(slot: 0, time: 1.02)) == [.touch(slot: 0, phase: .up, location: Point(x: 10, y: 20), time: 1.02)])
        #expect(t.translate(.touchUp(slot: 1, time: 1.03)) == [.touch(slot: 1, phase: .up, location: Point(x: 310, y: 205), time: 1.03)])
        #expect(t.touches.isEmpty)
    }

    @Test func aLiftWithNoFingerDownHasNoPositionAndLeavesNothingBehind() {
        var t = LibinputTranslator(mapping: panel)
        // The finger went down before the seat was ours: only its lift is seen.
        #expect(t.translate(.touchUp(slot: 3, time: 2)) == [.touch(slot: 3, phase: .up, location: .zero, time: 2)])
        #expect(t.touches.isEmpty)
        // A slot reused after a lift starts afresh.
        _ = t.translate(.touchDown(slot: 3, x: 5, y: 6, time: 3))
        _ = t.translate(.touchUp(slot: 3, time: 3.1))
        #expect(t.translate(.touchUp(slot: 3, time: 3.2)) == [.touch(slot: 3, phase: .up, location: .zero, time: 3.2)])
    }

    @Test func cancelledFingersAreForgotten() {
        var t = LibinputTranslator(mapping: panel)
        _ = t.translate(.touchDown(slot: 0, x: 1, y: 2, time: 1))
        #expect(t.translate(.touchCancel(slot: 0, time: 2)) == [.touch(slot: 0, phase: .cancel, location: Point(x: 1, y: 2), time: 2)])
        #expect(t.touches.isEmpty)
    }

    @Test func aSuspendedSeatCancelsEveryFingerDownInSlotOrder() {
        var t = LibinputTranslator(mapping: panel)
        #expect(t.translate(.suspended(time: 1)).isEmpty, "nothing down, nothing to cancel")
        _ = t.translate(.touchDown(slot: 4, x: 40, y: 40, time: 1))
        _ = t.translate(.touchDown(slot: 2, x: 20, y: 20, time: 1))
        #expect(t.translate(.suspended(time: 5)) == [
            .touch(slot: 2, phase: .cancel, location: Point(x: 20, y: 20), time: 5),
            .touch(slot: 4, phase: .cancel, location: Point(x: 40, y: 40), time: 5),
            .frame(time: 5)])
        #expect(t.touches.isEmpty)
    }

    @Test func theMouseIsAFingerOnlyWhileTheLeftButtonIsHeld() {
        var t = LibinputTranslator(mapping: panel)
        let slot = InputEvent.mouseSlot
        #expect(t.mouse == Point(x: 400, y: 240), "it starts in the middle")
        #expect(t.translate(.pointerMotion(dx: 10, dy: -5, time: 1)).isEmpty, "a hovering mouse touches nothing")
        #expect(t.translate(.pointerButton(code: 0x111, pressed: true, time: 1)).isEmpty, "the right button is no finger")
        #expect(t.translate(.pointerButton(code: LibinputTranslator.leftButton, pressed: true, time: 2)) ==
                [.touch(slot: slot, phase: .down, location: Point(x: 410, y: 235), time: 2), .frame(time: 2)])
        #expect(t.translate(.pointerButton(code: LibinputTranslator.leftButton, pressed: true, time: 2.1)).isEmpty,
                "a second press changes nothing")
        #expect(t.translate(.pointerMotion(dx: 1000, dy: 0, time: 3)) ==
                [.touch(slot: slot, phase: .motion, location: Point(x: 799, y: 235), time: 3), .frame(time: 3)],
                "kept on the screen")
        #expect(t.translate(.pointerMotionAbsolute(x: 100, y: 50, time: 4)) ==
                [.touch(slot: slot, phase: .motion, location: Point(x: 100, y: 50), time: 4), .frame(time: 4)])
        #expect(t.translate(.pointerButton(code: LibinputTranslator.leftButton, pressed: false, time: 5)) ==
                [.touch(slot: slot, phase: .up, location: Point(x: 100, y: 50), time: 5), .frame(time: 5)])
        #expect(t.translate(.pointerButton(code: LibinputTranslator.leftButton, pressed: false, time: 6)).isEmpty,
                "a release without a press changes nothing")
    }

    @Test func aMouseUnpluggedWithItsButtonHeldCancelsItsFinger() {
        var t = LibinputTranslator(mapping: panel)
        #expect(t.translate(.pointerRemoved(time: 1)).isEmpty)
        _ = t.translate(.pointerButton(code: LibinputTranslator.leftButton, pressed: true, time: 1))
        #expect(t.translate(.pointerRemoved(time: 2)) ==
                [.touch(slot: InputEvent.mouseSlot, phase: .cancel, location: Point(x: 400, y: 240), time: 2), .frame(time: 2)])
        #expect(!t.mouseDown)
    }

    @Test func panelPositionsTurnWithTheScreen() {
        var t = LibinputTranslator(mapping: ScreenMapping(deviceWidth: 800, deviceHeight: 480, rotation: .clockwise90))
        let expected = t.mapping.logical(Point(x: 10, y: 20))
        #expect(expected != Point(x: 10, y: 20))
        #expect(t.translate(.touchDown(slot: 0, x: 10, y: 20, time: 1)).compactMap(touch).first?.location == expected)
        t.mapping = panel
        #expect(t.translate(.touchMotion(slot: 0, x: 10, y: 20, time: 2)).compactMap(touch).first?.location == Point(x: 10, y: 20))
    }

    @Test func keysGoThroughTheKeyTranslator() {
        var t = LibinputTranslator(mapping: panel)
        #expect(t.translate(.key(code: KeyTranslator.enter, pressed: true, time: 1)) == [.key(.enter, pressed: true, time: 1)])
        #expect(t.translate(.key(code: KeyTranslator.leftCtrl, pressed: true, time: 1)).isEmpty, "modifiers only set state")
        _ = t.translate(.key(code: KeyTranslator.leftAlt, pressed: true, time: 1))
        #expect(t.translate(.key(code: KeyTranslator.backspace, pressed: true, time: 2)) == [.key(.quitChord, pressed: true, time: 2)])
    }
}
