import Foundation
import TestSupport
import Testing

/// `adasis replay --traffic` sends the traffic speed as PROFILE SHORT 21, and `adasis decode` and
/// `adasis reconstruct` show it (the sample feed on the Kamppi drive; Docs/adasis-conventions.md).
@Suite("adasis replay --traffic: the traffic-speed profile", .serialized)
struct TrafficSpeedCommandTests {
    /// The main path's `traffic speed:` entries of `adasis reconstruct` output, and the vehicle's offset.
    static func mainPathSpeeds(_ output: String) throws -> (entries: [(Int, String)], vehicle: Int) {
        let lines = output.split(separator: "\n")
        let position = try #require(lines.first { $0.hasPrefix("position: ") })
        let vehicle = try #require(Int(position.split(separator: ",")[1].split(separator: " ")[1]))
        let main = lines.drop { !$0.hasSuffix("(main)") }.dropFirst().prefix { !$0.hasPrefix("path ") }
        let line = try #require(main.first { $0.hasPrefix("  traffic speed: ") })
        let entries = line.dropFirst("  traffic speed: ".count).components(separatedBy: ", ").map { entry in
            let parts = entry.split(separator: " ", maxSplits: 2)
            return (Int(parts[0]) ?? -1, String(parts[2]))
        }
        return (entries, vehicle)
    }

    /// Where the closed stretch among `entries` starts and how long it is (to the next entry).
    static func closure(_ entries: [(Int, String)]) -> (start: Int, length: Int)? {
        guard let index = entries.firstIndex(where: { $0.1 == "closed" }), index + 1 < entries.count else { return nil }
        return (entries[index].0, entries[index + 1].0 - entries[index].0)
    }

    @Test("the feed's speeds and its closure ride on the main path; decode names them; expiry turns them to no data")
    func profileOnTheBus() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let log = ScratchDirectory.path("speed.log")
        defer { unlink(log) }
        let replay = ["replay", "--map", map, TrafficUseCommandTests.drive, "--preset", "all", "--candump", log]
        let traffic = try runAdasis(
            replay + ["--traffic", TrafficUseCommandTests.feed, "--traffic-time", "2026-11-25T12:01:00Z"])
        #expect(traffic.status == 0, "\(traffic.stderr)")

        // At 90 s the roadworks (closed for 10 m) and the 25 km/h record 121 m past their start lie
        // ahead (offsets count from where the main path began).
        let (ahead, vehicle) = try Self.mainPathSpeeds(try runAdasis(["reconstruct", log, "--at", "90"]).stdout)
        let closed = try #require(Self.closure(ahead), "\(ahead)")
        #expect(closed.length >= 9 && closed.length <= 11, "\(ahead)")
        #expect(ahead.contains { $0.0 == closed.start + 121 && $0.1 == "25 km/h" }, "\(ahead)")
        #expect(vehicle < closed.start)

        let decoded = try runAdasis(["decode", log]).stdout.split(separator: "\n").filter {
            $0.contains("ProfileType=21(traffic speed)")
        }
        #expect(decoded.contains { $0.contains("=1021(closed)") } && decoded.contains { $0.contains("=25(25 km/h)") })

        // The feed is valid until 12:05, 240 s into the drive: from there on no data where the car is.
        let (late, lateVehicle) = try Self.mainPathSpeeds(try runAdasis(["reconstruct", log, "--at", "249"]).stdout)
        let inForce = late.last { $0.0 <= lateVehicle }
        #expect(inForce?.1 == "no data" && late.allSatisfy { $0.0 < lateVehicle - 200 || $0.1 == "no data" }, "\(late)")

        // Without a feed the profile is not sent at all.
        #expect(try runAdasis(replay).status == 0)
        #expect(try !runAdasis(["decode", log]).stdout.contains("ProfileType=21"))
    }
}
