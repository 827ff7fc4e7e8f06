import Testing
@testable import Platform
import Graphics

@Suite("Choosing connector, mode and CRTC")
struct OutputChoiceTests {
    let hdmiModes = [ModeInfo(name: "1920x1080", width: 1920, height: 1080, refresh: 60, isPreferred: true),
                     ModeInfo(name: "1920x1080", width: 1920, height: 1080, refresh: 50, isPreferred: false),
                     ModeInfo(name: "1280x720", width: 1280, height: 720, refresh: 50, isPreferred: false),
                     ModeInfo(name: "1280x720", width: 1280, height: 720, refresh: 60, isPreferred: false)]
    var connectors: [ConnectorInfo] {
        [ConnectorInfo(id: 30, name: "HDMI-A-1", isConnected: false, modes: []),
         ConnectorInfo(id: 31, name: "DSI-1", isConnected: true, modes: [], encoderIDs: [40]),   // no modes yet
         ConnectorInfo(id: 32, name: "HDMI-A-2", isConnected: true, modes: hdmiModes, currentEncoderID: 0,
                       encoderIDs: [41]),
         ConnectorInfo(id: 33, name: "Virtual-1", isConnected: true, modes: hdmiModes, encoderIDs: [42])]
    }

    @Test func firstConnectedConnectorWithModesUnlessOneIsNamed() {
        #expect(OutputChoice.connector(in: connectors, named: nil)?.id == 32)
        #expect(OutputChoice.connector(in: connectors, named: "virtual-1")?.id == 33)
        #expect(OutputChoice.connector(in: connectors, named: "HDMI-A-1") == nil)   // disconnected: wait
        #expect(OutputChoice.connector(in: [], named: nil) == nil)
    }

    @Test func preferredModeUnlessASizeIsRequested() {
        #expect(OutputChoice.mode(in: hdmiModes, request: nil)?.description == "1920x1080@60 (preferred)")
        #expect(OutputChoice.mode(in: hdmiModes, request: ModeRequest("1280x720"))?.refresh == 60)
        #expect(OutputChoice.mode(in: hdmiModes, request: ModeRequest("1280x720@50"))?.refresh == 50)
        #expect(OutputChoice.mode(in: hdmiModes, request: ModeRequest("1920x1080@75"))?.refresh == 60)
        #expect(OutputChoice.mode(in: hdmiModes, request: ModeRequest("800x600")) == nil)
        let unpreferred = hdmiModes.map { var m = $0; m.isPreferred = false; return m }
        #expect(OutputChoice.mode(in: unpreferred, request: nil)?.refresh == 60)
    }

    @Test func modeRequestsParse() {
        #expect(ModeRequest("1280x800") == ModeRequest(width: 1280, height: 800))
        #expect(ModeRequest("1920X1080@50") == ModeRequest(width: 1920, height: 1080, refresh: 50))
        for bad in ["", "1280", "x800", "1280x", "0x10", "1280x800@", "axb", "1280x800@x"] {
            #expect(ModeRequest(bad) == nil, "\(bad)")
        }
    }

    @Test func crtcOfTheCurrentEncoderElseTheFirstFreePossibleOne() {
        let crtcs: [UInt32] = [50, 51, 52]
        let encoders = [EncoderInfo(id: 41, crtcID: 0, possibleCRTCs: 0b110),
                        EncoderInfo(id: 42, crtcID: 52, possibleCRTCs: 0b111)]
        var c = connectors[2]
        #expect(OutputChoice.crtc(for: c, encoders: encoders, crtcIDs: crtcs) == 51)
        #expect(OutputChoice.crtc(for: c, encoders: encoders, crtcIDs: crtcs, taken: [51]) == 52)
        #expect(OutputChoice.crtc(for: c, encoders: encoders, crtcIDs: crtcs, taken: [51, 52]) == nil)
        c = connectors[3]
        c.currentEncoderID = 42
        #expect(OutputChoice.crtc(for: c, encoders: encoders, crtcIDs: crtcs) == 52)   // keep what is lit
        #expect(OutputChoice.crtc(for: c, encoders: encoders, crtcIDs: crtcs, taken: [52]) == 50)
    }
}

@Suite("Hotplug decisions")
struct ScreenChangeTests {
    let big = ModeInfo(name: "1920x1080", width: 1920, height: 1080, refresh: 60, isPreferred: true)
    let small = ModeInfo(name: "1280x800", width: 1280, height: 800, refresh: 60, isPreferred: true)

    func hdmi(connected: Bool, modes: [ModeInfo]) -> [ConnectorInfo] {
        [ConnectorInfo(id: 5, name: "HDMI-A-1", isConnected: connected, modes: modes)]
    }

    @Test func waitingForAScreenUntilOneIsPluggedIn() {
        #expect(OutputChoice.change(current: nil, connectors: hdmi(connected: false, modes: []),
                                    connectorName: nil, mode: nil) == .keepWaiting)
        #expect(OutputChoice.change(current: nil, connectors: hdmi(connected: true, modes: [big]),
                                    connectorName: nil, mode: nil) == .connect)
        #expect(OutputChoice.change(current: nil, connectors: hdmi(connected: true, modes: [big]),
                                    connectorName: "DP-1", mode: nil) == .keepWaiting)
    }

    @Test func unplugReplugAndADifferentMonitor() {
        let driving = (connectorID: UInt32(5), width: 1920, height: 1080)
        #expect(OutputChoice.change(current: driving, connectors: hdmi(connected: true, modes: [big, small]),
                                    connectorName: nil, mode: nil) == .keep)
        #expect(OutputChoice.change(current: driving, connectors: hdmi(connected: false, modes: []),
                                    connectorName: nil, mode: nil) == .disconnected)
        #expect(OutputChoice.change(current: driving, connectors: [], connectorName: nil, mode: nil) == .disconnected)
        #expect(OutputChoice.change(current: driving, connectors: hdmi(connected: true, modes: [small]),
                                    connectorName: nil, mode: nil) == .remodeset)
        // A requested mode the new monitor lacks: treat as gone rather than guess.
        #expect(OutputChoice.change(current: driving, connectors: hdmi(connected: true, modes: [small]),
                                    connectorName: nil, mode: ModeRequest(width: 1920, height: 1080)) == .disconnected)
    }
}

@Suite struct ConnectorPhysicalSizeTests {
    @Test func aConnectorReportsItsMillimetresOrNone() {
        let panel = ConnectorInfo(id: 1, name: "DSI-1", isConnected: true, modes: [], millimetres: (154, 86))
        #expect(panel.physicalSize == Size(width: 154, height: 86))
        // 0×0 (projectors, adapters, virtual GPUs) and half-reported sizes mean unknown.
        #expect(ConnectorInfo(id: 2, name: "Virtual-1", isConnected: true, modes: []).physicalSize == nil)
        #expect(ConnectorInfo(id: 3, name: "HDMI-A-1", isConnected: true, modes: [], millimetres: (520, 0)).physicalSize == nil)
    }
}
