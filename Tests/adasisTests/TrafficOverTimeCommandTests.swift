import Foundation
import TestSupport
import Testing

/// `adasis horizon|replay --traffic`: the incidents in force follow the drive's time, not only
/// those at its start. The sample feed's roadworks moved to start 80 s into the kamppi drive
/// (12:02:20, the drive starting at 12:01:00) and end at 180 s.
@Suite("adasis horizon/replay --traffic over the drive's time", .serialized)
struct TrafficOverTimeCommandTests {
    /// The sample feed with the roadworks in force from 12:02:20 to 12:04:00 only.
    static func midDriveFeed() throws -> String {
        let sample = try String(contentsOf: Repository.url("Data/traffic/sample-feed.json"), encoding: .utf8)
        let moved = sample.replacingOccurrences(
            of: #""startTime": "2026-11-25T08:00:00Z", "endTime": "2026-11-25T18:00:00Z""#,
            with: #""startTime": "2026-11-25T12:02:20Z", "endTime": "2026-11-25T12:04:00Z""#)
        try #require(moved != sample, "the sample feed's roadworks changed; update this test")
        let path = ScratchDirectory.path("mid.json")
        try moved.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "horizon: no incident before it starts, then ahead, entered and exited; stderr says when it started and ended")
    func horizonFollowsTheIncident() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let feed = try Self.midDriveFeed()
        defer { unlink(feed) }
        let result = try runAdasis([
            "horizon", "--map", map, TrafficUseCommandTests.drive, "--traffic", feed, "--traffic-time",
            "2026-11-25T12:01:00Z",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("0 incidents in force, 1 congested stretches"), "\(result.stderr)")
        #expect(result.stderr.contains("traffic at 80.0 s: 1 incidents in force (roadworks-1)"), "\(result.stderr)")
        #expect(result.stderr.contains("traffic at 180.0 s: 0 incidents in force"), "\(result.stderr)")
        var before = 0
        var after: [Double] = []
        var events: [String] = []
        for line in try TrafficUseCommandTests.lines(result.stdout) {
            let time = try #require(line["time_s"] as? Double)
            let incidents = (line["objects"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "incident" }
            if time < 80 {
                before += incidents.count
            } else {
                after += incidents.compactMap { $0["distance_m"] as? Double }
            }
            events += (line["object_events"] as? [String] ?? []).filter { $0.contains("incident:") }
        }
        #expect(before == 0, "an incident before its start")
        #expect(after.count > 10 && after.first! > 90, "\(after)")
        #expect(zip(after, after.dropFirst()).allSatisfy { $0 >= $1 }, "the incident must come closer")
        #expect(events.count == 2 && events[0].hasPrefix("entered ") && events[1].hasPrefix("exited "), "\(events)")
    }

    @Test("replay: the receiver holds no incident before its start and the roadworks ahead after it")
    func replayFollowsTheIncident() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let feed = try Self.midDriveFeed()
        defer { unlink(feed) }
        let log = ScratchDirectory.path("mid.log")
        defer { unlink(log) }
        let replay = try runAdasis([
            "replay", "--map", map, TrafficUseCommandTests.drive, "--preset", "all", "--candump", log, "--traffic",
            feed,
            "--traffic-time", "2026-11-25T12:01:00Z",
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        let early = try runAdasis(["reconstruct", log, "--at", "79"])
        #expect(early.status == 0 && !early.stdout.contains("object incident"), "\(early.stdout)")
        let rebuilt = try runAdasis(["reconstruct", log, "--at", "90"])
        let main = rebuilt.stdout.split(separator: "\n").drop { !$0.hasSuffix("(main)") }.dropFirst().prefix {
            !$0.hasPrefix("path ")
        }
        // As with the roadworks in force all along (TrafficUseCommandTests): 10 m of the main path
        // ahead of the vehicle.
        let lines = main.filter { $0.contains("object incident (13)") }
        let (_, vehicle) = try TrafficSpeedCommandTests.mainPathSpeeds(rebuilt.stdout)
        let bounds = lines.first.map { line in
            line.split(separator: ":").last!.split(separator: " ").compactMap { Int($0) }
        }
        #expect(lines.count == 1 && bounds?.count == 2, "\(rebuilt.stdout)")
        if let bounds, bounds.count == 2 {
            #expect(bounds[0] > vehicle && (9...11).contains(bounds[1] - bounds[0]), "\(rebuilt.stdout)")
        }

        // Taken in place: the incident's start and end and the feed's expiry start no new main
        // path (rebuilding the horizon at each change started 4). Segment counts are not compared:
        // the traffic-speed profile (PROFILE SHORT 21) shares the bus budget.
        let plain = try runAdasis([
            "replay", "--map", map, TrafficUseCommandTests.drive, "--preset", "all", "--candump", log,
        ])
        #expect(plain.status == 0, "\(plain.stderr)")
        func summary(_ stderr: String) -> (segments: Substring?, mainPaths: Substring?) {
            let last = stderr.split(separator: "\n").last { $0.hasPrefix("adasis replay: sent ") } ?? ""
            let words = last.split(separator: " ")
            let segments = words.firstIndex(of: "segment").flatMap {
                words.indices.contains($0 + 1) ? words[$0 + 1] : nil
            }
            let mainPaths = words.firstIndex(of: "new").flatMap { $0 > 0 ? words[$0 - 1] : nil }
            return (segments, mainPaths)
        }
        let traffic = summary(replay.stderr)
        let without = summary(plain.stderr)
        #expect(traffic.mainPaths != nil && traffic.mainPaths == without.mainPaths, "\(replay.stderr)\n\(plain.stderr)")
    }
}
