import Foundation
import Testing
import TestSupport

/// `adasis map info` and `adasis map export-geojson` on the imported sample map.
@Suite("adasis map info and export-geojson", .serialized)
struct MapCommandTests {
    @Test("info shows metadata, counts and attribute coverage")
    func info() throws {
        try requireBuiltAdasis()
        let result = try runAdasis(["map", "info", try GoldenFrameTests.mapPath.get()])
        #expect(result.status == 0, "\(result.stderr)")
        for line in [
            "map version:  2019 Q2", "countries:    FI", "links:        998, 27.92 km", "speed limit explicit",
            "features:     2 safety cameras", "turn restrictions",
        ] {
            #expect(result.stdout.contains(line), "missing '\(line)' in\n\(result.stdout)")
        }
    }

    @Test("export-geojson writes a FeatureCollection: one LineString per link, Points for cameras and signals")
    func exportGeoJSON() throws {
        try requireBuiltAdasis()
        let output = ScratchDirectory.path("export.geojson")
        defer { unlink(output) }
        let result = try runAdasis(["map", "export-geojson", try GoldenFrameTests.mapPath.get(), "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let object =
            try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let features = try #require(object?["features"] as? [[String: Any]])
        let types = features.compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(types.filter { $0 == "LineString" }.count == 998)
        let cameras = features.filter { ($0["properties"] as? [String: Any])?["feature"] as? String == "safety_camera" }
        #expect(cameras.count == 2)
        let missing = try runAdasis(["map", "info", "/nonexistent.map"])
        #expect(missing.status != 0 && missing.stderr.contains("cannot open map file /nonexistent.map"))
    }
}
