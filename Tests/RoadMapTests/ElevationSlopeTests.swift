import Foundation
import Testing
@testable import RoadMap

/// Terrain slope from SRTM tiles written by the test: a plane rising 5 m per sample row toward
/// the north (row spacing 1/1200°, about 92.7 m), so a north-going road climbs 5.4 %.
@Suite("slope from SRTM elevation tiles")
struct ElevationSlopeTests {
    static func directory(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("adasis-srtm-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A 1201×1201 tile N60E024 whose height is `height(rowFromSouth)`.
    static func writeTile(in directory: String, height: (Int) -> Int16) throws {
        var bytes = [UInt8](repeating: 0, count: 1201 * 1201 * 2)
        for row in 0..<1201 {
            let value = UInt16(bitPattern: height(1200 - row))
            for column in 0..<1201 {
                bytes[2 * (row * 1201 + column)] = UInt8(value >> 8)
                bytes[2 * (row * 1201 + column) + 1] = UInt8(value & 0xFF)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent("N60E024.hgt"))
    }

    static let rowSpacing = GeoPoint(latitude: 60.17, longitude: 24.94).distance(to: GeoPoint(latitude: 60.17 + 1.0 / 1200, longitude: 24.94))

    @Test("a road up the plane climbs 5 m per row spacing; driven the other way it falls")
    func tiltedPlane() throws {
        let directory = try Self.directory("plane")
        try Self.writeTile(in: directory) { 100 + 5 * Int16($0) }
        let model = try ElevationModel(directory: directory)
        let north = [GeoPoint(latitude: 60.170, longitude: 24.94), GeoPoint(latitude: 60.175, longitude: 24.94)]
        let profile = try #require(try ElevationSlope.profile(along: north, model: model))
        let expected = (5 / Self.rowSpacing * 1000).rounded() / 10
        #expect(profile == [ProfilePoint(offset: 0, value: expected)])
        #expect(abs(expected - 5.4) < 0.05)
        let south = try #require(try ElevationSlope.profile(along: north.reversed(), model: model))
        #expect(south.map(\.value) == [-expected])
        let east = try #require(try ElevationSlope.profile(along: [GeoPoint(latitude: 60.17, longitude: 24.94),
                                                                   GeoPoint(latitude: 60.17, longitude: 24.95)], model: model))
        #expect(east.map(\.value) == [0])
    }

    @Test("the importer gives untagged links terrain slope and keeps OSM incline where tagged")
    func importerUsesTerrain() throws {
        let directory = try Self.directory("import")
        try Self.writeTile(in: directory) { 100 + 5 * Int16($0) }
        var graph = try RoadGraphBuilderTests.build()
        graph.links[0].slope = [ProfilePoint(offset: 0, value: -3)]  // as if tagged incline=-3%
        let terrain = try graph.applyingTerrainSlope(try ElevationModel(directory: directory))
        #expect(terrain.links[0].slope == [ProfilePoint(offset: 0, value: -3)])
        #expect(terrain.links.dropFirst().allSatisfy { !$0.slope.isEmpty })
        #expect(terrain.report.linksWithTerrainSlope == graph.links.count - 1 && terrain.report.linksWithoutTerrain == 0)
        // A north–south street climbs, an east–west one is level.
        let sideStreet = try #require(terrain.links.first { $0.wayID == 2 })  // drawn north → south
        #expect(sideStreet.slope.allSatisfy { $0.value < -5 })
    }

    @Test("no tile: no slope, counted; a void sample: no slope; a malformed tile: an error naming it")
    func missingAndMalformed() throws {
        let empty = try Self.directory("empty")
        let graph = try RoadGraphBuilderTests.build()
        let result = try graph.applyingTerrainSlope(try ElevationModel(directory: empty))
        #expect(result.report.linksWithTerrainSlope == 0 && result.report.linksWithoutTerrain == graph.links.count)
        let void = try Self.directory("void")
        try Self.writeTile(in: void) { _ in Int16.min }
        #expect(try ElevationModel(directory: void).elevation(at: GeoPoint(latitude: 60.17, longitude: 24.94)) == nil)
        let broken = try Self.directory("broken")
        try Data(repeating: 0, count: 1000).write(to: URL(fileURLWithPath: broken).appendingPathComponent("N60E024.hgt"))
        #expect { try ElevationModel(directory: broken).elevation(at: GeoPoint(latitude: 60.17, longitude: 24.94)) } throws: {
            "\($0)".contains("N60E024.hgt") && "\($0)".contains("1201×1201")
        }
        #expect(throws: ElevationError.self) { try ElevationModel(directory: "/nonexistent-srtm") }
    }
}
