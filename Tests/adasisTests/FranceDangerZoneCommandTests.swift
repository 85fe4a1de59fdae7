import Foundation
import Testing
import TestSupport

/// The French variant of the two-country map through the commands, with the shipped rules table:
/// `adasis map info` says what the filter makes of each country's cameras, `adasis horizon`
/// reports the French camera only as a danger zone, and `adasis replay` → `adasis reconstruct`
/// rebuilds that zone from the frames, with no camera and nothing of Germany's cameras.
@Suite("danger zones in France through the commands", .serialized)
struct FranceDangerZoneCommandTests {
    static let directory = ScratchDirectory.url("fr")

    static let mapPath: Result<String, Error> = Result {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("fr-de.map").path
        let result = try runAdasis(["map", "import", "Data/border/fr-de-border.osm.pbf", "-o", path])
        guard result.status == 0 else { throw ImportFailure(message: result.stderr) }
        return path
    }

    struct ImportFailure: Error { var message: String }

    @Test("map info: France's cameras become danger zones, Germany's are not reported")
    func mapInfo() throws {
        try requireBuiltAdasis()
        let info = try runAdasis(["map", "info", try Self.mapPath.get()])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("  FR: 2 fixed_speed_camera as danger zones\n"), "\(info.stdout)")
        #expect(
            info.stdout.contains(
                "  DE: 2 fixed_speed_camera, 1 red_light_camera, 1 average_speed_zone not reported\n"),
            "\(info.stdout)")
    }

    @Test("horizon 20 s before the border: the French camera ahead is a danger zone, never a camera")
    func horizon() throws {
        try requireBuiltAdasis()
        let map = try Self.mapPath.get()
        // 130 s: the vehicle is 390 m before the border, in Germany; the French camera 1.9 km ahead.
        let shipped = try runAdasis(["horizon", "--map", map, "Data/border/border-drive.csv", "--at", "130"])
        #expect(shipped.status == 0, "\(shipped.stderr)")
        #expect(shipped.stdout.contains("\"type\" : \"danger_zone\""), "\(shipped.stdout)")
        #expect(!shipped.stdout.contains("\"camera\"") && !shipped.stdout.contains("speed_camera"), "\(shipped.stdout)")
    }

    @Test("replay and reconstruct: one danger zone (code 6) on the main path, no camera on CAN")
    func replayAndReconstruct() throws {
        try requireBuiltAdasis()
        let map = try Self.mapPath.get()
        let log = Self.directory.appendingPathComponent("fr-de.log").path
        let replay = try runAdasis([
            "replay", "--map", map, "Data/border/border-drive.csv", "--preset", "all", "--candump", log,
        ])
        try #require(replay.status == 0, "\(replay.stderr)")
        let decoded = try runAdasis(["decode", log])
        #expect(!decoded.stdout.contains("ProfileType=16"), "no safety-camera spot is sent")
        let rebuilt = try runAdasis(["reconstruct", log])
        try #require(rebuilt.status == 0, "\(rebuilt.stderr)")
        let objects = rebuilt.stdout.split(separator: "\n").filter { $0.hasPrefix("  object ") }
        // At the drive's end the vehicle has passed the westbound zone; the main path, turning back
        // at the road's dead end, holds the zone of the camera's other direction (open: its end
        // lies past the horizon).
        #expect(objects.count == 1 && objects[0].hasPrefix("  object danger_zone (6): "), "\(rebuilt.stdout)")
        #expect(rebuilt.stdout.contains("country changes: 0.0 s DE/DEU DE-BW → "), "\(rebuilt.stdout.prefix(400))")
    }
}
