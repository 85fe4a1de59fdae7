import Foundation
import RoadMap
import RoadMapStore
import TestSupport
import Testing

/// `--traffic` on the commands that route and drive, on the imported sample map with the sample
/// feed (Data/traffic/sample-feed.json, valid 12:00–12:05 on 2026-11-25).
@Suite("adasis route/horizon --traffic", .serialized)
struct TrafficUseCommandTests {
    static let feed = Repository.url("Data/traffic/sample-feed.json").path
    static let drive = Repository.url("Data/drives/kamppi.csv").path

    /// The horizon's JSON lines, decoded.
    static func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("the feed's roadworks on the kamppi drive are an incident ahead, closing in, then entered and exited")
    func incidentAhead() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let result = try runAdasis([
            "horizon", "--map", map, Self.drive, "--traffic", Self.feed, "--traffic-time", "2026-11-25T12:01:00Z",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 incidents in force, 1 congested stretches"), "\(result.stderr)")
        var distances: [Double] = []
        var events: [String] = []
        var congestion = false
        for line in try Self.lines(result.stdout) {
            for object in line["objects"] as? [[String: Any]] ?? [] {
                if object["type"] as? String == "incident", let distance = object["distance_m"] as? Double {
                    distances.append(distance)
                }
                if object["type"] as? String == "congestion" { congestion = true }
            }
            events += (line["object_events"] as? [String] ?? []).filter { $0.contains("incident:") }
        }
        #expect(distances.count > 10 && distances.first! > 100, "\(distances)")
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 >= $1 }, "the incident must come closer")
        #expect(events.count == 2 && events[0].hasPrefix("entered ") && events[1].hasPrefix("exited "), "\(events)")
        #expect(congestion, "the 8 km/h stretch (20 % of free flow) is congestion")

        // Without traffic there is no incident; a CSV drive has no date to check the feed against.
        let plain = try runAdasis(["horizon", "--map", map, Self.drive])
        #expect(!plain.stdout.contains("\"incident\""))
        let undated = try runAdasis(["horizon", "--map", map, Self.drive, "--traffic", Self.feed])
        #expect(undated.status != 0 && undated.stderr.contains("--traffic-time"), "\(undated.stderr)")
        let late = try runAdasis([
            "horizon", "--map", map, Self.drive, "--traffic", Self.feed, "--traffic-time", "2026-11-25T13:00:00Z",
        ])
        #expect(late.status != 0 && late.stderr.contains("expired"), "\(late.stderr)")
    }

    @Test("adasis replay --traffic: the roadworks go out as an incident zone (13) the reconstructor rebuilds ahead")
    func replayIncidentOnCAN() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let log = ScratchDirectory.path("traffic.log")
        defer { unlink(log) }
        let replay = ["replay", "--map", map, Self.drive, "--preset", "all", "--candump", log]
        let traffic = try runAdasis(
            replay + ["--traffic", Self.feed, "--traffic-time", "2026-11-25T12:01:00Z"])
        #expect(traffic.status == 0, "\(traffic.stderr)")
        // At 90 s the incident is 76 m ahead (adasis horizon above): the receiver holds it.
        let rebuilt = try runAdasis(["reconstruct", log, "--at", "90"])
        let main = rebuilt.stdout.split(separator: "\n").drop { !$0.hasSuffix("(main)") }.dropFirst().prefix {
            !$0.hasPrefix("path ")
        }
        // 143 … 153 m of the main path: link L2321844257767292952+, 10 m.
        let lines = main.filter { $0.contains("object incident (13)") }
        #expect(lines.count == 1 && lines.first?.hasSuffix(" m") == true, "\(rebuilt.stdout)")
        let congested = rebuilt.stdout.split(separator: "\n").filter { $0.contains("object congestion (15)") }
        #expect(congested.allSatisfy { $0.hasSuffix("value 8") }, "\(congested)")

        let plain = try runAdasis(replay)
        #expect(plain.status == 0)
        #expect(try !runAdasis(["reconstruct", log, "--at", "90"]).stdout.contains("object incident"))
    }

    @Test("a route whose destination the feed closes on every side is refused, saying the feed closes it")
    func closureMakesTheRouteUnreachable() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let network = try MapFile(path: map)
        let destination = GeoPoint(latitude: 60.1720306, longitude: 24.9479331)
        let around = try network.links(near: destination, radius: 300)
        var incidents: [String] = []
        for link in around {
            for (sign, direction) in [("+", LinkDirection.forward), ("-", .backward)]
            where link.oneway.allows(direction) {
                incidents.append(
                    #"{"id": "c\#(incidents.count)", "iconCategory": 8, "roadClosed": true, "links": ["L\#(link.id.rawValue)\#(sign)"]}"#
                )
            }
        }
        let feed = ScratchDirectory.url("closure.json")
        defer { try? FileManager.default.removeItem(at: feed) }
        try Data(
            """
            {"trafficModelId": "closure", "generatedAt": "2026-11-25T12:00:00Z", "validUntil": "2026-11-25T12:30:00Z",
             "incidents": [\(incidents.joined(separator: ","))]}
            """.utf8
        ).write(to: feed)
        let arguments = ["route", "--map", map, "--from", RouteCommandTests.from, "--to", RouteCommandTests.to]
        #expect(try runAdasis(arguments).status == 0)
        let closed = try runAdasis(arguments + ["--traffic", feed.path, "--traffic-time", "2026-11-25T12:10:00Z"])
        #expect(closed.status != 0)
        #expect(closed.stderr.contains("every way there is closed"), "\(closed.stderr)")
        // Once the feed has expired it is refused, and says so.
        let expired = try runAdasis(arguments + ["--traffic", feed.path, "--traffic-time", "2026-11-25T13:00:00Z"])
        #expect(expired.status != 0 && expired.stderr.contains("expired"), "\(expired.stderr)")
    }
}
