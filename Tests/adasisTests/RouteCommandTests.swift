import Foundation
import RoadMap
import RoadMapStore
import TestSupport
import Testing

/// `adasis route` on the imported sample map, and its output fed back to `--route`.
@Suite("adasis route", .serialized)
struct RouteCommandTests {
    /// The kamppi drive's first and last fixes (Data/drives/kamppi.csv).
    static let from = "60.1673073,24.9398208", to = "60.1720306,24.9479331"

    @Test("a route across central Helsinki: legal links end to end, read back by horizon --route")
    func plansALegalRoute() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let routeFile = ScratchDirectory.path("route.route")
        defer { unlink(routeFile) }
        let result = try runAdasis(["route", "--map", map, "--from", Self.from, "--to", Self.to, "-o", routeFile])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: routeFile, encoding: .utf8)
        #expect(text.hasPrefix("# adasis route: "))
        let links: [DirectedLink] = text.split(separator: "\n").filter { $0.hasPrefix("L") }.map { line in
            DirectedLink(LinkID(UInt64(line.dropFirst().dropLast())!), line.last == "+" ? .forward : .backward)
        }
        #expect(links.count > 20, "\(text)")
        let network = try MapFile(path: map)
        for (previous, next) in zip(links, links.dropFirst()) {
            #expect(try network.successors(of: previous).contains(next), "\(previous) → \(next) is not a legal turn")
        }
        // It starts and ends on the links nearest the two points.
        let start = try network.link(links[0].link), end = try network.link(links[links.count - 1].link)
        #expect(
            try #require(start.geometry.project(GeoPoint(latitude: 60.1673073, longitude: 24.9398208))).distance < 10)
        #expect(try #require(end.geometry.project(GeoPoint(latitude: 60.1720306, longitude: 24.9479331))).distance < 10)

        // The horizon follows it: at the first fix the main path starts with the route's links.
        let horizon = try runAdasis([
            "horizon", "--map", map, "--route", routeFile,
            Repository.url("Data/drives/kamppi.csv").path, "--at", "5",
        ])
        #expect(horizon.status == 0, "\(horizon.stderr)")
        #expect(!horizon.stderr.contains("left out"), "\(horizon.stderr)")
    }

    @Test("--geojson: a LineString from the origin to the destination with length and duration, and the placed points")
    func geoJSON() throws {
        try requireBuiltAdasis()
        let result = try runAdasis([
            "route", "--map", try GoldenFrameTests.mapPath.get(), "--from", Self.from, "--to", Self.to,
            "--via", "60.1686,24.9452", "--geojson",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let features = try #require(object?["features"] as? [[String: Any]])
        let line = try #require(features.first)
        let coordinates = try #require((line["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let properties = try #require(line["properties"] as? [String: Any])
        #expect(properties["legs"] as? Int == 2)
        let length = try #require(properties["length_m"] as? Double)
        // The drawn shape is as long as the reported length.
        var drawn = 0.0
        for (a, b) in zip(coordinates, coordinates.dropFirst()) {
            drawn += GeoPoint(latitude: a[1], longitude: a[0]).distance(to: GeoPoint(latitude: b[1], longitude: b[0]))
        }
        #expect(abs(drawn - length) < 0.02 * length, "shape \(drawn) m, reported \(length) m")
        let roles = features.dropFirst().compactMap { ($0["properties"] as? [String: Any])?["role"] as? String }
        #expect(roles == ["origin", "via", "destination"])
    }

    @Test("a point off the map, or a malformed one, is refused with what to do")
    func badInput() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let offMap = try runAdasis(["route", "--map", map, "--from", Self.from, "--to", "60.30,25.20"])
        #expect(offMap.status == 1)
        #expect(offMap.stderr.contains("no drivable road within 200 m of 60.3,25.2"), "\(offMap.stderr)")
        let malformed = try runAdasis(["route", "--map", map, "--from", "60.17;24.93", "--to", Self.to])
        #expect(malformed.status != 0 && malformed.stderr.contains("--from"), "\(malformed.stderr)")
        let both = try runAdasis([
            "horizon", "--map", map, "--route", "/dev/null", "--destination", Self.to,
            Repository.url("Data/drives/kamppi.csv").path,
        ])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
    }
}
