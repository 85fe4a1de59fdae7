import Foundation
import GRDB
import RoadMap
import Testing

@testable import RoadMapStore

/// `MapFile.linksWithSafetyLocations(near:radius:of:)`: what danger zones are derived from, read
/// over kilometres around the vehicle without filling the tile cache.
@Suite("map file: the links with a safety location around a point")
struct SafetyLocationScanTests {
    /// Every safety-location type.
    static let all = Set(RoadObjectType.allCases.filter(\.isSafetyLocation))

    /// Short east–west links on a grid of 5 × 5 tiles (0.01°), every seventh with a camera, every
    /// eleventh with the start of an average-speed section, every fifth with a hazard zone (not a
    /// safety location); and a long link with a camera, stored in the south-west tile, crossing
    /// the whole grid's first row.
    static func graph() -> RoadGraph {
        var links: [RoadLink] = []
        var nextIndex: [TileKey: UInt32] = [:]
        var number: Int64 = 0
        func add(_ geometry: [GeoPoint], features: [PointFeature]) {
            let home = TileKey(containing: geometry[0])
            let index = nextIndex[home, default: 0]
            nextIndex[home] = index + 1
            number += 1
            links.append(
                RoadLink(
                    id: LinkID(tile: home, index: index), wayID: number, startNode: NodeID(2 * number),
                    endNode: NodeID(2 * number + 1), geometry: geometry, highway: .secondary, features: features))
        }
        for row in 0..<25 {
            for column in 0..<25 {
                let latitude = 60.1 + 0.002 * Double(row) + 0.0005, longitude = 24.9 + 0.002 * Double(column) + 0.0005
                var features: [PointFeature] = []
                let k = row * 25 + column
                if k % 7 == 0 {
                    features.append(
                        PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 10, direction: nil))
                }
                if k % 11 == 0 {
                    let piece = ZonePiece(
                        type: .averageSpeedZone, zone: Int64(k), length: 20, isZoneStart: true, isZoneEnd: false,
                        speedLimit: 60)
                    features.append(PointFeature(kind: .zone(piece), offset: 20, direction: .forward))
                }
                if k % 5 == 0 {
                    let piece = ZonePiece(
                        type: .hazard, zone: Int64(k), length: 20, isZoneStart: true, isZoneEnd: true, speedLimit: nil)
                    features.append(PointFeature(kind: .zone(piece), offset: 5, direction: nil))
                }
                add(
                    [
                        StoreFixture.point(latitude, longitude),
                        StoreFixture.point(latitude, longitude + 0.0008),
                    ], features: features)
            }
        }
        add(
            [StoreFixture.point(60.1012, 24.9012), StoreFixture.point(60.1012, 24.9488)],
            features: [PointFeature(kind: .safetyCamera(.redLight, speedLimit: nil), offset: 2_000, direction: nil)])
        links.sort { $0.id < $1.id }
        return RoadGraph(links: links, restrictions: [], report: ImportReport())
    }

    /// The grid written to a map file named `name` in the ``ScratchDirectory``; its path.
    static func writeGrid(_ name: String) throws -> String {
        let path = MapFileTests.temporaryPath(name)
        try MapFileWriter.write(
            graph(),
            metadata: MapMetadata(
                sourceFile: "x", sourceTimestamp: nil, countries: ["FI"], boundingBox: [], importReport: ImportReport()),
            to: path)
        return path
    }

    @Test("the same links as a radius query keeps of its result, in the same order, everywhere on the grid")
    func sameAsFilteredQuery() throws {
        let path = try Self.writeGrid("safety-scan.map")
        defer { unlink(path) }
        let scanned = try MapFile(path: path), queried = try MapFile(path: path)
        var found = 0
        for (latitude, longitude, radius) in [
            (60.101, 24.905, 300.0), (60.125, 24.925, 1_500), (60.11, 24.94, 5_000), (60.1012, 24.94, 50),
            (60.13, 24.89, 800), (60.09, 24.96, 2_500),
        ] {
            let point = GeoPoint(latitude: latitude, longitude: longitude)
            let expected = try queried.links(near: point, radius: radius)
                .filter { $0.features.contains(where: \.isSafetyLocationStart) }
            let links = try scanned.linksWithSafetyLocations(near: point, radius: radius, of: Self.all)
            #expect(links == expected, "at \(latitude), \(longitude) within \(radius) m")
            found += links.count
        }
        #expect(found > 100)
        // Of some types only: the sections' starts, the red-light camera; none of a type absent.
        let point = GeoPoint(latitude: 60.11, longitude: 24.94)
        for types: Set<RoadObjectType> in [
            [.averageSpeedZone], [.redLightCamera], [.fixedSpeedCamera], [.restrictionCamera],
        ] {
            let expected = try queried.links(near: point, radius: 5_000).filter { $0.holdsSafetyLocation(of: types) }
            #expect(try scanned.linksWithSafetyLocations(near: point, radius: 5_000, of: types) == expected)
            #expect(expected.isEmpty == (types == [.restrictionCamera]))
        }
        // The long link with a camera is found from a tile it only crosses.
        let crossed = GeoPoint(latitude: 60.1013, longitude: 24.945)
        #expect(TileKey(containing: crossed) != TileKey(containing: GeoPoint(latitude: 60.1012, longitude: 24.9012)))
        #expect(try scanned.linksWithSafetyLocations(near: crossed, radius: 30, of: Self.all).map(\.wayID) == [626])
    }

    @Test("a scan reads no tile and leaves the tile cache as it was")
    func scanBypassesTheCache() throws {
        let path = try Self.writeGrid("safety-scan-cache.map")
        defer { unlink(path) }
        let map = try MapFile(path: path)
        let centre = GeoPoint(latitude: 60.125, longitude: 24.925)
        // Every tile of the grid holds a camera or a section's start; the index holds a copy of each.
        #expect(try map.linksWithSafetyLocations(near: centre, radius: 5_000, of: Self.all).count > 100)
        #expect(map.tileReads == 0)
        // Nothing was cached: the same area read through the cache reads every tile it covers.
        _ = try map.links(near: centre, radius: 5_000)
        #expect(map.tileReads == TileKey.covering(centre, radius: 5_000).count)
    }

    /// One link per tile on 7 × 7 tiles, and on two of them a camera: the south-west tile's link
    /// (long, crossing the first row eastwards) and the centre tile's.
    static func sparseGraph() -> RoadGraph {
        var links: [RoadLink] = []
        var number: Int64 = 0
        for row in 0..<7 {
            for column in 0..<7 {
                let latitude = 60.1 + 0.01 * Double(row) + 0.002, longitude = 24.9 + 0.01 * Double(column) + 0.002
                let end = row == 0 && column == 0 ? 24.965 : longitude + 0.004
                let camera = (row == 0 && column == 0) || (row == 3 && column == 3)
                number += 1
                links.append(
                    RoadLink(
                        id: LinkID(tile: TileKey(containing: StoreFixture.point(latitude, longitude)), index: 0),
                        wayID: number, startNode: NodeID(2 * number), endNode: NodeID(2 * number + 1),
                        geometry: [StoreFixture.point(latitude, longitude), StoreFixture.point(latitude, end)],
                        highway: .secondary,
                        features: camera
                            ? [
                                PointFeature(
                                    kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 100, direction: nil)
                            ]
                            : []))
            }
        }
        links.sort { $0.id < $1.id }
        return RoadGraph(links: links, restrictions: [], report: ImportReport())
    }

    @Test("the map's index names the tiles holding or crossed by a camera, and a scan reads only those")
    func scanReadsOnlyIndexedTiles() throws {
        let path = MapFileTests.temporaryPath("safety-scan-sparse.map")
        defer { unlink(path) }
        let graph = Self.sparseGraph()
        try MapFileWriter.write(
            graph,
            metadata: MapMetadata(
                sourceFile: "x", sourceTimestamp: nil, countries: ["FI"], boundingBox: [], importReport: ImportReport()),
            to: path)
        let long = graph.links.first { $0.wayID == 1 }!, centre = graph.links.first { $0.wayID == 25 }!
        // The index: the long link in each tile of the first row it reaches, the centre link in its own.
        let built = SafetyLinkIndex(tiles: MapTileAssembly.tiles(of: graph))
        let index = built.rows
        let firstRow = TileKey(containing: long.geometry[0]).row
        #expect(index.filter { $0.link == long.id }.map(\.tile.row) == Array(repeating: firstRow, count: 7))
        #expect(index.filter { $0.link == centre.id }.map(\.tile) == [centre.id.tile!])
        #expect(index.count == 8)
        #expect(index.allSatisfy { $0.types == SafetyLinkIndex.mask(of: [.fixedSpeedCamera]) })
        #expect(built.records.map(\.link) == [long.id, centre.id])
        // Around the centre, over all 49 tiles: the two cameras found, no tile read.
        let map = try MapFile(path: path)
        let middle = GeoPoint(latitude: 60.135, longitude: 24.935)
        #expect(try map.linksWithSafetyLocations(near: middle, radius: 5_000, of: Self.all).map(\.wayID) == [1, 25])
        #expect(try map.linksWithSafetyLocations(near: middle, radius: 5_000, of: [.redLightCamera]).isEmpty)
        // From the first row's east end: the long link, stored in a tile west of the area.
        let east = GeoPoint(latitude: 60.102, longitude: 24.964)
        #expect(try map.linksWithSafetyLocations(near: east, radius: 200, of: Self.all).map(\.wayID) == [1])
        #expect(map.tileReads == 0)
        // The index's copy is the link itself.
        #expect(try map.linksWithSafetyLocations(near: east, radius: 200, of: Self.all) == [try map.link(long.id)])
        // The same as the filtered radius query everywhere.
        let queried = try MapFile(path: path)
        for latitude in stride(from: 60.095, through: 60.175, by: 0.01) {
            for longitude in stride(from: 24.895, through: 24.975, by: 0.01) {
                let point = GeoPoint(latitude: latitude, longitude: longitude)
                let expected = try queried.links(near: point, radius: 1_500)
                    .filter { $0.features.contains(where: \.isSafetyLocationStart) }
                #expect(try map.linksWithSafetyLocations(near: point, radius: 1_500, of: Self.all) == expected)
            }
        }
    }

    @Test(
        "a map file without the safety-location index is refused with what to do",
        arguments: [
            "safety_links", "safety_link_records",
        ])
    func missingIndexRefused(table: String) throws {
        let path = try Self.writeGrid("safety-scan-no-\(table).map")
        defer { unlink(path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DROP TABLE \(table)") }
        try queue.close()
        #expect(
            throws: MapFileError.notAMap(
                path: path, reason: "no safety-location index (a damaged map: import it again)")
        ) {
            _ = try MapFile(path: path)
        }
    }

    /// The error of a scan over the grid after `change` (SQL, `?` the link) was made to the index's
    /// copy of one link; that link.
    static func scanError(afterChangingCopy change: String, name: String) throws -> (MapFileError?, LinkID) {
        let path = try writeGrid(name)
        defer { unlink(path) }
        let queue = try DatabaseQueue(path: path)
        let id = try queue.read { try Int64.fetchOne($0, sql: "SELECT link FROM safety_link_records LIMIT 1")! }
        try queue.write { try $0.execute(sql: change, arguments: [id]) }
        try queue.close()
        let map = try MapFile(path: path)
        let link = LinkID(UInt64(bitPattern: id))
        do {
            _ = try map.linksWithSafetyLocations(near: try map.link(link).geometry[0], radius: 10, of: all)
            return (nil, link)
        } catch {
            return (error as? MapFileError, link)
        }
    }

    @Test("a copy missing from the index is an error naming the link, not a camera silently lost")
    func missingRecord() throws {
        let (error, link) = try Self.scanError(
            afterChangingCopy: "DELETE FROM safety_link_records WHERE link = ?", name: "safety-scan-missing.map")
        guard case .damagedSafetyLink(_, link, nil) = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(error!.description.contains("safety-location index's copy of link \(link)"))
        #expect(error!.description.contains("missing copy"))
    }

    @Test("a damaged copy of a link in the index is an error naming the link, not a wrong link")
    func damagedRecord() throws {
        let (error, link) = try Self.scanError(
            afterChangingCopy:
                "UPDATE safety_link_records SET blob = substr(blob, 1, 10) || x'00' || substr(blob, 12) WHERE link = ?",
            name: "safety-scan-damaged.map")
        guard case .damagedSafetyLink(_, link, .checksumMismatch?) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(error!.description.contains("safety-location index's copy of link \(link)"))
    }
}
