import Graphics
import PhotoKioskApp
import UI

/// What `snapshot --touch-overlay` shows: the touch lab's overlay over the screen with two
/// fingers part-way through a pinch and the gesture label, so a picture of the overlay shows
/// what it draws. The touches go to the overlay only; the screen beneath does not react.
enum SnapshotTouchDemo {
    static func draw(on host: ScreenHost) {
        let lab = TouchLab(host: host, showsOverlay: true, allowsToggle: false)
        lab.overlay.recordLatency(0.0123)
        let size = host.window.bounds.size
        let now = host.window.scheduler.now
        let centre = Point(x: size.width * 0.55, y: size.height * 0.4)
        let steps = 12
        for step in 0...steps {
            let t = now - 0.25 + 0.25 * Double(step) / Double(steps)
            let spread = size.width * (0.06 + 0.10 * Double(step) / Double(steps))
            let phase: TouchPhase = step == 0 ? .began : .moved
            lab.overlay.observe([
                TouchEvent(slot: 0, phase: phase, location: Point(x: centre.x - spread, y: centre.y + spread * 0.35), timestamp: t),
                TouchEvent(slot: 1, phase: phase, location: Point(x: centre.x + spread, y: centre.y - spread * 0.35), timestamp: t),
            ])
        }
        lab.overlay.flash("pinch")
        host.pump()
    }
}
