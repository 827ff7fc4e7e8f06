import CDRM
import Graphics

// Picking a connector, a mode and a CRTC: pure functions over plain values, so the rules are
// testable without a DRM device.

/// A display mode of a connector.
public struct ModeInfo: Sendable, CustomStringConvertible {
    public var name: String
    public var width: Int
    public var height: Int
    public var refresh: Int
    public var isPreferred: Bool
    /// The kernel's mode record, passed back to drmModeSetCrtc.
    var raw: drmModeModeInfo

    public init(name: String, width: Int, height: Int, refresh: Int, isPreferred: Bool) {
        self.init(name: name, width: width, height: height, refresh: refresh, isPreferred: isPreferred,
                  raw: drmModeModeInfo())
    }

    init(name: String, width: Int, height: Int, refresh: Int, isPreferred: Bool, raw: drmModeModeInfo) {
        self.name = name
        self.width = width
        self.height = height
        self.refresh = refresh
        self.isPreferred = isPreferred
        self.raw = raw
    }

    public var description: String { "\(width)x\(height)@\(refresh)\(isPreferred ? " (preferred)" : "")" }
}

/// A connector as probed: its name ("HDMI-A-1"), whether a screen is plugged in, its modes.
public struct ConnectorInfo: Sendable {
    public var id: UInt32
    public var name: String
    public var isConnected: Bool
    public var modes: [ModeInfo]
    /// The encoder currently attached (0 when none) and all encoders it can use.
    public var currentEncoderID: UInt32
    public var encoderIDs: [UInt32]
    /// The panel's visible size in millimetres as the screen reports it (EDID); nil when it
    /// reports none (0×0: projectors, some adapters and virtual GPUs).
    public var physicalSize: Size?

    public init(id: UInt32, name: String, isConnected: Bool, modes: [ModeInfo],
                currentEncoderID: UInt32 = 0, encoderIDs: [UInt32] = [], millimetres: (width: Int, height: Int) = (0, 0)) {
        self.id = id
        self.name = name
        self.isConnected = isConnected
        self.modes = modes
        self.currentEncoderID = currentEncoderID
        self.encoderIDs = encoderIDs
        physicalSize = millimetres.width > 0 && millimetres.height > 0
            ? Size(width: Double(millimetres.width), height: Double(millimetres.height)) : nil
    }
}

/// An encoder: the CRTC it is driven by now (0 when none) and the CRTCs it could use, as a
/// bit mask over the card's CRTC list.
public struct EncoderInfo: Sendable {
    public var id: UInt32
    public var crtcID: UInt32
    public var possibleCRTCs: UInt32
}

/// A requested mode, "1280x800" or "1280x800@60".
public struct ModeRequest: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refresh: Int?

    public init(width: Int, height: Int, refresh: Int? = nil) {
        self.width = width
        self.height = height
        self.refresh = refresh
    }

    public init?(_ text: String) {
        let parts = text.lowercased().split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else { return nil }
        var refresh: Int?
        if parts.count == 2 {
            guard let r = Int(parts[1]), r > 0 else { return nil }
            refresh = r
        }
        self.init(width: w, height: h, refresh: refresh)
    }

    public var description: String { "\(width)x\(height)" + (refresh.map { "@\($0)" } ?? "") }
}

public enum OutputChoice {
    /// The connector named `name` (case-insensitive, e.g. "HDMI-A-1") if given and connected;
    /// otherwise the first connected connector that has modes.
    public static func connector(in connectors: [ConnectorInfo], named name: String?) -> ConnectorInfo? {
        let usable = connectors.filter { $0.isConnected && !$0.modes.isEmpty }
        if let name {
            return usable.first { $0.name.matchesIgnoringCase(name) }
        }
        return usable.first
    }

    /// The requested size (matching refresh if given, else the preferred or fastest of that
    /// size); without a request the preferred mode, else the first (the kernel lists the
    /// largest first).
    public static func mode(in modes: [ModeInfo], request: ModeRequest?) -> ModeInfo? {
        guard let request else { return modes.first(where: \.isPreferred) ?? modes.first }
        let sized = modes.filter { $0.width == request.width && $0.height == request.height }
        if let refresh = request.refresh, let exact = sized.first(where: { $0.refresh == refresh }) {
            return exact
        }
        return sized.first(where: \.isPreferred) ?? sized.max { $0.refresh < $1.refresh }
    }

    /// A CRTC for `connector`: the one its current encoder drives (no modeset glitch), else the
    /// first free CRTC one of its encoders can use. `crtcIDs` is the card's CRTC list in order.
    public static func crtc(for connector: ConnectorInfo, encoders: [EncoderInfo], crtcIDs: [UInt32],
                            taken: Set<UInt32> = []) -> UInt32? {
        if let current = encoders.first(where: { $0.id == connector.currentEncoderID }),
           current.crtcID != 0, !taken.contains(current.crtcID) {
            return current.crtcID
        }
        for encoder in encoders where connector.encoderIDs.contains(encoder.id) {
            for (index, crtc) in crtcIDs.enumerated() where index < 32 {
                if encoder.possibleCRTCs & (1 << UInt32(index)) != 0 && !taken.contains(crtc) { return crtc }
            }
        }
        return nil
    }
}

private extension String {
    func matchesIgnoringCase(_ other: String) -> Bool { lowercased() == other.lowercased() }
}

/// What a hotplug event means for the screen being driven.
public enum ScreenChange: Equatable, Sendable {
    /// Same screen, same mode: nothing to do.
    case keep
    /// The driven screen was unplugged: stop drawing and wait.
    case disconnected
    /// The screen (or its preferred mode) changed size: set the mode again.
    case remodeset
    /// Nothing was driven and a usable screen is there now: set the mode.
    case connect
    /// Nothing was driven and still nothing usable.
    case keepWaiting
}

extension OutputChoice {
    /// Decides what a udev "drm" event changes. `current` is the connector and mode size now
    /// driven (nil while waiting); `connectors` is a fresh probe.
    public static func change(current: (connectorID: UInt32, width: Int, height: Int)?,
                              connectors: [ConnectorInfo], connectorName: String?,
                              mode request: ModeRequest?) -> ScreenChange {
        guard let current else {
            return connector(in: connectors, named: connectorName) == nil ? .keepWaiting : .connect
        }
        guard let now = connectors.first(where: { $0.id == current.connectorID }), now.isConnected else {
            return .disconnected
        }
        guard let m = mode(in: now.modes, request: request) else { return .disconnected }
        return m.width == current.width && m.height == current.height ? .keep : .remodeset
    }
}
