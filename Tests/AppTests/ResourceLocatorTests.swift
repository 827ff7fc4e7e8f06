import Imaging
import PhotoKioskApp
import Testing
import TestSupport

/// The sample photos and the place table of a source checkout are found above the built
/// binary (.build/<triple>/release/photokiosk), each by its own kind of file.
@Suite struct ResourceLocatorTests {
    @Test func aCheckoutsPhotosAndPlaceTableAreFoundFourLevelsAboveTheBinary() {
        let checkout = makeTemporaryDirectory("locator")
        defer { removeTree(checkout) }
        makeDirectory(RawPath(checkout + "/assets/photos"))
        makeDirectory(RawPath(checkout + "/assets/places"))
        writeFile(RawPath(checkout + "/assets/places/places.bin"), [1])
        let binary = checkout + "/.build/x86_64-unknown-linux-gnu/release/photokiosk"
        #expect(ResourceLocator.bundledPhotos(executablePath: binary) == checkout + "/assets/photos")
        #expect(ResourceLocator.placeTable(executablePath: binary) == checkout + "/assets/places/places.bin")
    }

    @Test func aFolderNamedLikeThePlaceTableIsNotTakenForIt() {
        let checkout = makeTemporaryDirectory("locator")
        defer { removeTree(checkout) }
        makeDirectory(RawPath(checkout + "/assets/places/places.bin"))
        makeDirectory(RawPath(checkout + "/assets/photos"))
        let binary = checkout + "/.build/release/photokiosk"
        #expect(ResourceLocator.placeTable(executablePath: binary) != checkout + "/assets/places/places.bin")
        #expect(ResourceLocator.bundledPhotos(executablePath: binary) == checkout + "/assets/photos")
    }
}
