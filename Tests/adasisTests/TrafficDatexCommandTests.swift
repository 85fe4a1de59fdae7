import Foundation
import TestSupport
import Testing

/// DATEX II situation records on the command line: `adasis traffic show` and `replay --traffic`
/// take the XML samples like the JSON feed (Docs/traffic-feed.md, "DATEX II").
@Suite("adasis traffic show / replay with DATEX II", .serialized)
struct TrafficDatexCommandTests {
    static let at = "2026-11-25T12:01:00Z"

    @Test("traffic show lists what was placed and why the rest was not, for v2.3 and v3")
    func show() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let v2 = try runAdasis([
            "traffic", "show", "--map", map, Repository.url("Data/traffic/sample-datex2.xml").path, "--at", Self.at,
        ])
        #expect(v2.status == 0, "\(v2.stderr)")
        #expect(v2.stdout.contains("traffic model datex2:2026-11-25T12:00:00Z, valid until 2026-11-25T12:15:00Z"))
        #expect(v2.stdout.contains("records: 6, matched 2, not matched 4"), "\(v2.stdout)")
        #expect(v2.stdout.contains("roadworks-1 roadWorks (road closed), delay unknown: L2321844257767292952+"))
        #expect(v2.stdout.contains("situationRecord[5]: the record is suspended (validityStatus)"))
        let v3 = try runAdasis([
            "traffic", "show", "--map", map, Repository.url("Data/traffic/sample-datex3.xml").path, "--at", Self.at,
        ])
        #expect(
            v3.status == 0 && v3.stdout.contains("records: 2, matched 2, not matched 0"), "\(v3.stdout)\(v3.stderr)")

        // A truncated publication is refused with where it broke; nothing is printed as placed.
        let text = try String(contentsOf: Repository.url("Data/traffic/sample-datex2.xml"), encoding: .utf8)
        let truncated = ScratchDirectory.url("datex.xml")
        defer { try? FileManager.default.removeItem(at: truncated) }
        try String(text.prefix(3000)).write(to: truncated, atomically: true, encoding: .utf8)
        let refused = try runAdasis(["traffic", "show", "--map", map, truncated.path, "--at", Self.at])
        #expect(refused.status != 0 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("not a DATEX II XML feed (truncated or malformed): line "), "\(refused.stderr)")
    }

    @Test("replay --traffic with the DATEX roadworks: closed on PROFILE SHORT 21 and an incident zone, rebuilt ahead")
    func replay() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let log = ScratchDirectory.path("datex.log")
        defer { unlink(log) }
        let run = try runAdasis([
            "replay", "--map", map, TrafficUseCommandTests.drive, "--preset", "all", "--candump", log, "--traffic",
            Repository.url("Data/traffic/sample-datex2.xml").path, "--traffic-time", Self.at,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let rebuilt = try runAdasis(["reconstruct", log, "--at", "90"]).stdout
        let (speeds, _) = try TrafficSpeedCommandTests.mainPathSpeeds(rebuilt)
        // Closed for 10 m, where the incident zone lies on the main path.
        let closed = try #require(TrafficSpeedCommandTests.closure(speeds), "\(speeds)")
        #expect(closed.length >= 9 && closed.length <= 11, "\(speeds)")
        #expect(
            rebuilt.contains("object incident (13): \(closed.start) … \(closed.start + closed.length) m"), "\(rebuilt)")
    }
}
