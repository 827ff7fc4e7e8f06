import Logging
import Platform
import PhotoKioskApp

extension Run {
    /// The CEC adapter that switches the TV with the screen, when `[cec] enabled`. No adapter,
    /// or one that refuses the claim, is one log line: the frame works on without it.
    static func startTV(_ config: KioskConfig, app: KioskApp, display: any Display, loop: EventLoop,
                        logger: Logger) -> CECAdapter? {
        guard config.cec.enabled else { return nil }
        let output = (display as? DRMDisplay)?.drivenConnectorLink
        guard case .chosen(let path, let why) = chooseCECAdapter(config, output: output) else {
            if case .none(let reason) = chooseCECAdapter(config, output: output) {
                logger.warning("CEC: \(reason); the TV is not switched, the frame works on")
            }
            return nil
        }
        do {
            let adapter = try CECAdapter(path: path)
            let settings = TVPowerPolicy.Settings(
                standbyOnBlank: config.cec.standby,
                viewOn: config.cec.powerOn == .image ? .image : config.cec.powerOn == .text ? .text : nil)
            guard let tv = app.attachTV(adapter, settings: settings, logger: logger) else { return nil }
            try adapter.claimPlayback()
            try adapter.attach(to: loop) { [weak tv] incoming in tv?.handle(incoming) }
            logger.info("CEC: \(path) (\(adapter.adapterName), \(why)); the TV is switched with the screen")
            return adapter
        } catch {
            logger.warning("CEC: \(path) not used: \(error); the TV is not switched, the frame works on")
            return nil
        }
    }

    /// The adapter the config names, else the one of `output`, else the only one.
    static func chooseCECAdapter(_ config: KioskConfig, output: CECAdapterChoice.DRMConnectorLink?) -> CECAdapterChoice.Outcome {
        let candidates = CECAdapter.devicePaths().map { path in
            CECAdapterChoice.Candidate(path: path, drmConnector: (try? CECAdapter(path: path))?.drmConnector)
        }
        return CECAdapterChoice.choose(configured: config.cec.devicePath, candidates: candidates, output: output)
    }
}
