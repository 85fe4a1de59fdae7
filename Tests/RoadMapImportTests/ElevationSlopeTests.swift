import Foundation
import RoadMap
import Testing
import TestSupport
@testable import RoadMapImport

/// Slope from synthetic SRTM tiles written by the test: a tilted plane h = 100 + 0.05 · (metres
/// north of the tile's south edge), rounded to whole metres as SRTM stores it, and a flat tile.
@Suite("slope from SRTM elevation tiles")
struct ElevationSlopeTests {
    static func directory(_ name: String) throws -> String {
        let path = ScratchDirectory.path("srtm-\(name)")
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The bytes of a `size`×`size` tile of cell (south, west) whose height is `height(metres north)`.
    static func tileBytes(size: Int = 1201, south: Int = 60, height: (Double) -> Int16) -> Data {
        var bytes = [UInt8](repeating: 0, count: size * size * 2)
        let edge = GeoPoint(latitude: Double(south), longitude: 24)
        for row in 0..<size {
            let latitude = Double(south) + Double(size - 1 - row) / Double(size - 1)
            let value = UInt16(bitPattern: height(edge.distance(to: GeoPoint(latitude: latitude, longitude: 24))))
            for column in 0..<size {
                bytes[2 * (row * size + column)] = UInt8(value >> 8)
                bytes[2 * (row * size + column) + 1] = UInt8(value & 0xFF)
            }
        }
        return Data(bytes)
    }

    static func plane(_ metresNorth: Double) -> Int16 { Int16((100 + 0.05 * metresNorth).rounded()) }

    /// A directory holding N60E024.hgt with `height`.
    static func tileDirectory(_ name: String, height: (Double) -> Int16) throws -> String {
        let directory = try directory(name)
        try tileBytes(height: height).write(to: URL(fileURLWithPath: directory).appendingPathComponent("N60E024.hgt"))
        return directory
    }

    static func profile(_ geometry: [GeoPoint], _ model: inout ElevationModel, uniformGrade: Bool = false) throws
        -> [ProfilePoint]
    {
        try #require(
            try ElevationSlope.profile(along: geometry, uniformGrade: uniformGrade) { point throws(ElevationError) in
                try model.elevation(at: point)
            })
    }

    /// Length-weighted mean of a profile over a link of `length` metres.
    static func mean(_ profile: [ProfilePoint], length: Double) -> Double {
        zip(profile, profile.dropFirst().map(\.offset) + [length]).reduce(0) { $0 + $1.0.value * ($1.1 - $1.0.offset) }
            / length
    }

    static let northward = [
        GeoPoint(latitude: 60.170, longitude: 24.94), GeoPoint(latitude: 60.175, longitude: 24.941),
        GeoPoint(latitude: 60.180, longitude: 24.94),
    ]

    @Test(
        "north-going road climbs ≈ 5 %; drawn southward it falls ≈ 5 %: the value is forward, mirrored and negated backward"
    )
    func tiltedPlane() throws {
        var model = try ElevationModel(directory: try Self.tileDirectory("plane", height: Self.plane))
        let length = Self.northward.polylineLength
        let up = try Self.profile(Self.northward, &model)
        #expect(up.count == 1 && up.first?.offset == 0 && abs(Self.mean(up, length: length) - 5) <= 0.1)
        let down = try Self.profile(Self.northward.reversed(), &model)
        #expect(down.count == 1 && abs(Self.mean(down, length: length) + 5) <= 0.1)
        // What a driver going south on the north-drawn link sees (stretches mirrored, sign flipped)
        // is what the south-drawn link says forward.
        let mirrored = zip(up, up.dropFirst().map(\.offset) + [length]).reversed().map {
            ProfilePoint(offset: length - $0.1, value: -$0.0.value)
        }
        #expect(mirrored.count == down.count)
        for (a, b) in zip(mirrored, down) { #expect(abs(a.offset - b.offset) < 0.01 && a.value == b.value) }
        // Along a row of the tile the height does not change.
        let east = try Self.profile(
            [GeoPoint(latitude: 60.17, longitude: 24.94), GeoPoint(latitude: 60.17, longitude: 24.96)], &model)
        #expect(east == [ProfilePoint(offset: 0, value: 0)])
        #expect(model.tileReads == 1)
    }

    @Test("a flat tile gives 0 %; a 1\" tile read from memory gives the plane's 5 %")
    func flatAndOneArcSecond() throws {
        var flat = try ElevationModel(directory: try Self.tileDirectory("flat") { _ in 87 })
        #expect(try Self.profile(Self.northward, &flat) == [ProfilePoint(offset: 0, value: 0)])
        let bytes = Self.tileBytes(size: 3601, height: Self.plane)
        var fine = ElevationModel { name throws(ElevationError) in name == "N60E024.hgt" ? bytes : nil }
        let profile = try Self.profile(Self.northward, &fine)
        #expect(profile.count == 1 && abs(Self.mean(profile, length: Self.northward.polylineLength) - 5) <= 0.1)
        let middle = try #require(try fine.elevation(at: GeoPoint(latitude: 60.5, longitude: 24.5)))
        #expect(
            abs(
                middle
                    - (100 + 0.05
                        * GeoPoint(latitude: 60, longitude: 24).distance(to: GeoPoint(latitude: 60.5, longitude: 24))))
                <= 0.5)
    }

    @Test("bridges and tunnels get one grade from end to end, not the terrain under them")
    func uniformGrade() throws {
        // A valley: 200 m high except 80 m between 300 and 700 m north of 60.17°.
        let valleyStart = GeoPoint(latitude: 60, longitude: 24).distance(to: GeoPoint(latitude: 60.17, longitude: 24))
        var model = try ElevationModel(
            directory: try Self.tileDirectory("valley") {
                ($0 > valleyStart + 300 && $0 < valleyStart + 700) ? 80 : 200
            })
        let bridge = [GeoPoint(latitude: 60.17, longitude: 24.94), GeoPoint(latitude: 60.179, longitude: 24.94)]
        #expect(try Self.profile(bridge, &model).contains { $0.value < -5 })
        #expect(try Self.profile(bridge, &model, uniformGrade: true) == [ProfilePoint(offset: 0, value: 0)])
    }

    @Test("the importer fills untagged links, keeps OSM incline, grades the tunnel evenly, and counts")
    func importerUsesElevation() throws {
        let directory = try Self.tileDirectory("import", height: Self.plane)
        var graph = try RoadGraphBuilderTests.build()
        graph.links[0].slope = [ProfilePoint(offset: 0, value: -3)]  // as if tagged incline=-3%
        let result = try graph.applyingElevationSlope(try ElevationModel(directory: directory))
        #expect(result.links[0].slope == [ProfilePoint(offset: 0, value: -3)])
        #expect(result.links.dropFirst().allSatisfy { !$0.slope.isEmpty })
        #expect(
            result.report.linksWithElevationSlope == graph.links.count - 1 && result.report.linksWithoutElevation == 0)
        // The side street (a tunnel, drawn north → south) falls evenly (whole-metre heights over
        // its 111 m: ±1 %); the main street (east–west) is level.
        let sideStreet = result.links.filter { $0.wayID == 2 }
        #expect(
            sideStreet.count == 2 && sideStreet.allSatisfy { $0.slope.count == 1 && abs($0.slope[0].value + 5) <= 1 })
        #expect(
            result.links.filter { $0.wayID == 1 && $0.id != graph.links[0].id }.allSatisfy {
                $0.slope == [ProfilePoint(offset: 0, value: 0)]
            })
    }

    @Test("no tile or a void sample: no slope, counted; a malformed tile: an error naming the file")
    func missingVoidMalformed() throws {
        let graph = try RoadGraphBuilderTests.build()
        let none = try graph.applyingElevationSlope(try ElevationModel(directory: try Self.directory("empty")))
        #expect(none.report.linksWithElevationSlope == 0 && none.report.linksWithoutElevation == graph.links.count)
        #expect(none.links.map(\.slope) == graph.links.map(\.slope))
        var void = try ElevationModel(directory: try Self.tileDirectory("void") { _ in Int16.min })
        let voidHeight = try void.elevation(at: GeoPoint(latitude: 60.17, longitude: 24.94))
        #expect(voidHeight == nil)
        // One void sample in a sloping tile: its neighbours carry the interpolation.
        var bytes = [UInt8](Self.tileBytes { _ in 0 })
        for row in 0..<1201 {
            for column in 0..<1201 {
                let value = UInt16(bitPattern: row == 600 && column == 600 ? Int16.min : Int16(1200 - column))
                bytes[2 * (row * 1201 + column)] = UInt8(value >> 8)
                bytes[2 * (row * 1201 + column) + 1] = UInt8(value & 0xFF)
            }
        }
        let holed = Data(bytes)
        var patched = ElevationModel { _ throws(ElevationError) in holed }
        let onVoid = try patched.elevation(at: GeoPoint(latitude: 60.5, longitude: 24.5))
        let beside = try patched.elevation(at: GeoPoint(latitude: 60.5, longitude: 24.5 + 0.25 / 1200))
        let clear = try patched.elevation(at: GeoPoint(latitude: 60.6, longitude: 24.5 + 0.25 / 1200))
        #expect(onVoid.map { $0 == 599 || $0 == 600 || $0 == 601 } == true)
        #expect(beside == 599 && clear.map { abs($0 - 599.75) < 1e-6 } == true)
        let broken = try Self.directory("broken")
        try Data(repeating: 0, count: 1000).write(
            to: URL(fileURLWithPath: broken).appendingPathComponent("N60E024.hgt"))
        var model = try ElevationModel(directory: broken)
        #expect { try model.elevation(at: GeoPoint(latitude: 60.17, longitude: 24.94)) } throws: {
            guard let error = $0 as? ElevationError else { return false }
            return error.problem == .wrongSize(bytes: 1000) && error.path == broken + "/N60E024.hgt"
                && "\(error)".contains("N60E024.hgt") && "\(error)".contains("1201×1201")
        }
        #expect { try graph.applyingElevationSlope(ElevationModel(directory: broken)) } throws: {
            "\($0)".contains("N60E024.hgt")
        }
        #expect { try ElevationModel(directory: "/nonexistent-srtm") } throws: {
            ($0 as? ElevationError)?.problem == .notADirectory && "\($0)".contains("/nonexistent-srtm")
        }
    }

    @Test("tile names and cells: south and west of the origin, lower-case files, at most tileCapacity tiles kept")
    func cellsAndCache() throws {
        #expect(ElevationCell(containing: GeoPoint(latitude: 60.17, longitude: 24.94)).fileName == "N60E024.hgt")
        #expect(ElevationCell(containing: GeoPoint(latitude: -33.9, longitude: -70.6)).fileName == "S34W071.hgt")
        #expect(ElevationCell(containing: GeoPoint(latitude: 0.5, longitude: 5.5)).fileName == "N00E005.hgt")
        let lower = try Self.directory("lower")
        try Self.tileBytes { _ in 12 }.write(to: URL(fileURLWithPath: lower).appendingPathComponent("n60e024.hgt"))
        var model = try ElevationModel(directory: lower)
        let lowerHeight = try model.elevation(at: GeoPoint(latitude: 60.5, longitude: 24.5))
        #expect(lowerHeight == 12)

        let tiles = ["N60E024.hgt": Self.tileBytes { _ in 1 }, "N60E025.hgt": Self.tileBytes { _ in 2 }]
        let west = GeoPoint(latitude: 60.5, longitude: 24.5), east = GeoPoint(latitude: 60.5, longitude: 25.5)
        var one = ElevationModel(tileCapacity: 1) { name throws(ElevationError) in tiles[name] }
        var two = ElevationModel(tileCapacity: 2) { name throws(ElevationError) in tiles[name] }
        for _ in 0..<3 {
            let heights = [
                try one.elevation(at: west), try one.elevation(at: east), try two.elevation(at: west),
                try two.elevation(at: east), try one.elevation(at: GeoPoint(latitude: 10, longitude: 10)),
            ]
            #expect(heights == [1, 2, 1, 2, nil])
        }
        #expect(one.tileReads == 6 && two.tileReads == 2)
    }
}
