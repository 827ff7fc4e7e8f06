import Graphics
import UI

/// A question over the whole screen with two buttons ("Reset order?" — Reset / Cancel), for
/// actions a kiosk user can take without a keyboard. A tap on the confirm button confirms; a
/// tap anywhere else cancels. Enter and Escape do the same from a keyboard.
public final class ConfirmPromptView: View {
    public let message: String
    public let confirmTitle: String
    public let cancelTitle: String
    public var font: Font?
    /// Called with true (confirmed) or false (cancelled); the prompt removes itself first.
    public var onFinish: ((Bool) -> Void)?

    static let panelSize = Size(width: 460, height: 170)
    static let buttonSize = Size(width: 180, height: 56)

    public init(frame: Rect, message: String, confirmTitle: String, cancelTitle: String = "Cancel") {
        self.message = message
        self.confirmTitle = confirmTitle
        self.cancelTitle = cancelTitle
        super.init(frame: frame)
        backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 150)
        addGestureRecognizer(TapGestureRecognizer { [weak self] tap in
            guard let self, tap.state == .ended else { return }
            self.finish(self.confirmButton.contains(tap.location(in: self)))
        })
    }

    var panel: Rect {
        let s = Self.panelSize
        return Rect(x: bounds.midX - s.width / 2, y: bounds.midY - s.height / 2, width: s.width, height: s.height)
    }

    /// The confirm button, bounds coordinates.
    public var confirmButton: Rect {
        let b = Self.buttonSize
        return Rect(x: panel.maxX - 20 - b.width, y: panel.maxY - 20 - b.height, width: b.width, height: b.height)
    }

    public var cancelButton: Rect {
        let b = Self.buttonSize
        return Rect(x: panel.minX + 20, y: panel.maxY - 20 - b.height, width: b.width, height: b.height)
    }

    public override func draw(in context: DrawContext) {
        // Rounded, anti-aliased: a light rim under the panel's face, buttons as rounded keys.
        context.fillRoundedRect(panel, radius: 14, color: Color(rgb: 0x55555E))
        context.fillRoundedRect(panel.insetBy(dx: 2, dy: 2), radius: 12, color: Color(rgb: 0x2A2A30))
        context.fillRoundedRect(cancelButton, radius: 10, color: Color(rgb: 0x44444C))
        context.fillRoundedRect(confirmButton, radius: 10, color: Color(rgb: 0xB03A2E))
        guard let font else { return }
        context.drawText(message, centeredIn: Rect(x: panel.minX + 20, y: panel.minY + 24, width: panel.width - 40,
                                                  height: font.lineHeight), font: font, color: .white)
        context.drawText(cancelTitle, centeredIn: cancelButton, font: font, color: .white)
        context.drawText(confirmTitle, centeredIn: confirmButton, font: font, color: .white)
    }

    public override func handleKey(_ key: KeyEvent) -> Bool {
        switch key {
        case .enter: finish(true)
        case .escape: finish(false)
        default: return false
        }
        return true
    }

    private func finish(_ confirmed: Bool) {
        removeFromSuperview()
        onFinish?(confirmed)
    }
}
