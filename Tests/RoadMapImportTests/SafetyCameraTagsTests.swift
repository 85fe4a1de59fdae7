import RoadMap
import Testing
@testable import RoadMapImport

@Suite("safety cameras from tags")
struct SafetyCameraTagsTests {
    @Test("speed camera nodes and enforcement relations give the camera type")
    func types() {
        #expect(SafetyCameraTags.cameraType(for: ["highway": "speed_camera"]) == .fixedSpeed)
        #expect(SafetyCameraTags.cameraType(for: ["highway": "speed_camera", "mobile": "yes"]) == .mobileSpeed)
        #expect(
            SafetyCameraTags.cameraType(for: ["type": "enforcement", "enforcement": "traffic_signals"]) == .redLight)
        #expect(
            SafetyCameraTags.cameraType(for: ["type": "enforcement", "enforcement": "average_speed"])
                == .averageSpeedZone)
        #expect(SafetyCameraTags.cameraType(for: ["type": "enforcement", "enforcement": "toll"]) == nil)
        #expect(SafetyCameraTags.cameraType(for: ["highway": "traffic_signals"]) == nil)
    }

    @Test("the enforced limit is read in km/h, units converted")
    func limit() throws {
        #expect(SafetyCameraTags.enforcedLimit(for: ["maxspeed": "60"]) == 60)
        let mph = try #require(SafetyCameraTags.enforcedLimit(for: ["maxspeed": "30 mph"]))
        #expect(abs(mph - 48.28032) < 1e-9)
        #expect(SafetyCameraTags.enforcedLimit(for: [:]) == nil)
    }
}
