import ArgumentParser

@main
struct PhotoKioskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photokiosk",
        abstract: "A touch photo viewer that owns the screen: DRM/KMS, libinput, no X11 or Wayland.",
        discussion: """
        With no subcommand, `run` starts the kiosk: the photo grid on the first usable screen \
        (DRM, then fbdev, then a headless screen that writes a PNG).
        """,
        version: BuildVersion.text,
        subcommands: [Run.self, Snapshot.self, Thumbnail.self, Tiles.self, Demo.self, Doctor.self, Record.self, Replay.self, TouchTest.self,
                      ConfigReference.self, Sources.self, SourceQuotaCommand.self, PrepareClips.self],
        defaultSubcommand: Run.self)
}
