import Imaging
import PhotoKioskApp
import Testing

/// `[sound]`: clips are silent unless asked, the device name is checked before ALSA reads it, and
/// flags override the file.
@Suite struct SoundConfigTests {
    @Test func soundIsOffByDefaultAndTurnsOnWithADevice() throws {
        #expect(KioskConfig().sound.output == nil)
        let config = try KioskConfig.parse("[sound]\nclips = true\ndevice = \"hdmi:CARD=vc4hdmi0,DEV=0\"\n", file: "test.toml")
        #expect(config.sound.output?.device == "hdmi:CARD=vc4hdmi0,DEV=0")
        var flags = KioskConfigOverrides()
        flags.soundClips = false
        #expect(try config.applying(flags).sound.output == nil)
        flags.soundClips = true
        flags.soundDevice = "plughw:1,0"
        #expect(try config.applying(flags).sound.output?.device == "plughw:1,0")
    }

    @Test("a device name ALSA would read as a file or a definition is refused with the reason",
          arguments: ["file:FILE=/var/lib/photokiosk/x,FORMAT=raw", "{ type file }", "\"default\"", "hw 0", "", "défaut",
                      String(repeating: "a", count: 65)])
    func hostileDeviceNamesAreRefused(name: String) {
        #expect(ClipSound(device: name) == nil)
        #expect(ClipSound.problem(with: name) != nil)
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        do {
            _ = try KioskConfig.parse("[sound]\nclips = true\ndevice = \"\(escaped)\"\n", file: "t.toml")
            Issue.record("accepted \(name)")
        } catch {
            #expect("\(error)".contains("sound.device"), "\(error)")
        }
    }

    @Test("the names aplay -L lists are taken", arguments: ["default", "hdmi:CARD=vc4hdmi0,DEV=0", "plughw:1,0",
                                                           "sysdefault:CARD=Headphones", "hw:Loopback,0,0", "null"])
    func alsaNamesAreTaken(name: String) {
        #expect(ClipSound(device: name)?.device == name)
        #expect(ClipSound.problem(with: name) == nil)
    }
}
