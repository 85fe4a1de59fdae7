import Foundation
import Testing
import TestSupport

/// `adasis reconstruct` on logs written by `adasis replay` for the sample map.
@Suite("adasis reconstruct", .serialized)
struct ReconstructCommandTests {
    static func replay(_ extra: [String]) throws -> (map: String, log: String) {
        let map = try GoldenFrameTests.mapPath.get()
        let log = ScratchDirectory.path("reconstruct-\(extra.joined()).log")
        let result = try runAdasis(
            ["replay", "--map", map, "Data/drives/kamppi.csv", "--duration", "30", "--candump", log] + extra)
        try #require(result.status == 0, "replay failed: \(result.stderr)")
        return (map, log)
    }

    @Test("the horizon at a moment: META-DATA, the vehicle on the main path, segments and stubs")
    func text() throws {
        try requireBuiltAdasis()
        let (_, log) = try Self.replay([])
        defer { unlink(log) }
        let result = try runAdasis(["reconstruct", log, "--at", "20"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("horizon at 20.000 s"))
        #expect(result.stdout.contains("meta-data: country 246, right-hand traffic, km/h, map 2019 Q2"))
        #expect(result.stdout.contains("(main)") && result.stdout.contains("SEGMENT") && result.stdout.contains("STUB"))
        #expect(result.stdout.contains("(gaps 0)") && !result.stdout.contains("(gaps 1"))
    }

    @Test("bad lines and undecodable frames are skipped and reported with their line numbers, in log order")
    func skippedWithLineNumbers() throws {
        try requireBuiltAdasis()
        let (_, log) = try Self.replay([])
        defer { unlink(log) }
        var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(lines.count > 100)
        let stamp = try #require(lines[9].split(separator: " ").first)
        lines[9] = "\(stamp) vcan0 361#E000000000000000"  // line 10: message type 7 does not exist
        lines[4] = "(garbage"  // line 5
        lines[39] = "(1.0) vcan0 361#\u{FF21}\u{FF21}"  // line 40: fullwidth hex digits (issue 16)
        let damaged = log + ".damaged"
        try (lines.joined(separator: "\n") + "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        defer { unlink(damaged) }
        let result = try runAdasis(["reconstruct", damaged])
        #expect(result.status == 0)
        #expect(result.stdout.contains("meta-data: country 246") && result.stdout.contains("SEGMENT"))
        #expect(
            result.stderr.contains("3 skipped (2 malformed line, 1 undecodable frame): line 5: "), "\(result.stderr)")
        let line10 = try #require(result.stderr.range(of: "; line 10: frame 361#E000000000000000 at "))
        let line40 = try #require(result.stderr.range(of: "; line 40: "))
        #expect(line10.lowerBound < line40.lowerBound, "in log order: \(result.stderr)")
        let strict = try runAdasis(["reconstruct", damaged, "--strict"])
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("line 5: ") && strict.stderr.contains("refused by --strict"), "\(strict.stderr)")
    }

    @Test("GeoJSON from shape points (preset all), or from link identifiers and the map")
    func geoJSON() throws {
        try requireBuiltAdasis()
        let (_, shapes) = try Self.replay(["--preset", "all"])
        let (map, identifiers) = try Self.replay(["--profiles", "link_identifier"])
        defer { unlink(shapes); unlink(identifiers) }
        func features(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try runAdasis(["reconstruct"] + arguments + ["--geojson"])
            try #require(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return object?["features"] as? [[String: Any]] ?? []
        }
        func geometryTypes(_ features: [[String: Any]]) -> Set<String> {
            Set(features.compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String })
        }
        let fromShapes = try features([shapes])
        #expect(!fromShapes.isEmpty && geometryTypes(fromShapes) == ["LineString"])
        #expect(fromShapes.contains { ($0["properties"] as? [String: Any])?["main"] as? Bool == true })
        #expect(try features([identifiers]).isEmpty)  // no shape points and no map: nothing to draw
        let fromMap = try features([identifiers, "--map", map])
        #expect(!fromMap.isEmpty && geometryTypes(fromMap) == ["MultiLineString"])
    }
}
