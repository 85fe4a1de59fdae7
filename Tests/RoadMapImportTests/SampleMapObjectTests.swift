import Foundation
import RoadMap
import RoadMapStore
import Testing
@testable import RoadMapImport
import TestSupport

/// The road objects of the imported sample map equal what pyosmium reads from the extract itself
/// (Tools/road_objects.py): tunnels and bridges by way, cameras, and every toll booth, border
/// control, level crossing and traffic-signal node on a kept road, by position.
@Suite("road objects of the sample map against pyosmium", .serialized)
struct SampleMapObjectTests {
    struct Expected: Decodable {
        var tunnel: [Int64]
        var bridge: [Int64]
        var speed_cameras: Int
        var toll_booth: [[Int64]]
        var border_crossing: [[Int64]]
        var railway_crossing: [[Int64]]
        var traffic_signals: [[Int64]]
    }

    static func links() throws -> [RoadLink] {
        let (map, _) = try SampleMapImportTests.imported.get()
        return try map.tileKeys().flatMap { try map.tile($0).links }
    }

    static func expected(roadWays: Set<Int64>) throws -> Expected {
        let directory = ScratchDirectory.url("road-objects")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let waysFile = directory.appendingPathComponent("ways.txt")
        try roadWays.sorted().map(String.init).joined(separator: "\n").write(
            to: waysFile, atomically: true, encoding: .utf8)
        let run = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Repository.url("Tools/road_objects.py").path, SampleMapImportTests.samplePath, waysFile.path])
        try #require(
            run.status == 0, "road_objects.py failed (Tools/install-dependencies installs osmium):\n\(run.stderr)")
        return try JSONDecoder().decode(Expected.self, from: Data(run.stdout.utf8))
    }

    /// Positions (1e-7 degrees) of the map's features of `kind`.
    static func positions(_ links: [RoadLink], _ kind: PointFeatureKind) -> Set<[Int64]> {
        Set(
            links.flatMap { link in
                link.features.filter { $0.kind == kind }.compactMap { feature in
                    link.geometry.point(atOffset: feature.offset).map {
                        [TileCoordinate.fixedPoint($0.point.latitude), TileCoordinate.fixedPoint($0.point.longitude)]
                    }
                }
            })
    }

    @Test("tunnels, bridges, cameras, level crossings, toll booths, border controls and signals")
    func objects() throws {
        let links = try Self.links()
        let expected = try Self.expected(roadWays: Set(links.map(\.wayID)))
        #expect(Set(links.filter { $0.tunnel == true }.map(\.wayID)) == Set(expected.tunnel))
        #expect(Set(links.filter { $0.bridge == true }.map(\.wayID)) == Set(expected.bridge))
        #expect(!expected.tunnel.isEmpty && !expected.bridge.isEmpty)
        let cameras = links.flatMap(\.features).filter { if case .safetyCamera = $0.kind { true } else { false } }
        #expect(cameras.count == expected.speed_cameras && cameras.count == 2)
        for (kind, positions) in [
            (PointFeatureKind.tollBooth, expected.toll_booth), (.borderControl, expected.border_crossing),
            (.railwayCrossing, expected.railway_crossing), (.trafficSignals, expected.traffic_signals),
        ] {
            let mapped = Self.positions(links, kind)
            // Equal up to 2e-7° (rounding of the point recomputed from the feature's offset).
            func near(_ a: [Int64], _ b: [Int64]) -> Bool { abs(a[0] - b[0]) <= 2 && abs(a[1] - b[1]) <= 2 }
            #expect(mapped.allSatisfy { m in positions.contains { near(m, $0) } }, "\(kind): not in OSM")
            let missing = positions.filter { p in !mapped.contains { near(p, $0) } }
            #expect(missing.isEmpty, "\(kind): missing from the map: \(missing)")
        }
        #expect(!expected.traffic_signals.isEmpty)
    }

    @Test("map info's counts: per country and type, one tunnel or bridge per way")
    func statistics() throws {
        let (map, _) = try SampleMapImportTests.imported.get()
        let statistics = try MapStatistics(map: map)
        let links = try Self.links()
        let finland = try #require(statistics.roadObjects[246])
        #expect(statistics.roadObjects.keys.sorted() == [246])
        #expect(finland[.tunnel] == Set(links.filter { $0.tunnel == true }.map(\.wayID)).count)
        #expect(finland[.bridge] == Set(links.filter { $0.bridge == true }.map(\.wayID)).count)
        #expect(finland[.fixedSpeedCamera] == 2)
        #expect(finland[.trafficSignals] == statistics.trafficSignalFeatures)
        // Bulevardi's hazard=children way (333061573), one stretch per direction.
        #expect(finland[.hazard] == 2)
    }
}
