import Foundation
import MapTiles
import RoadMap
import RoadMapImport
import RoadMapStore
import Testing
import TestSupport

/// The sample map's z14 tiles, decoded by the independent `mapbox-vector-tile` package
/// (Tests/MapTilesTests/decode_mvt.py; installed by Tools/install-dependencies).
@Suite("sample map vector tiles")
struct SampleMapTileTests {
    static let mapPath: Result<String, Error> = Result { try ImportedMap.file("Data/helsinki.osm.pbf") }

    /// One decoded feature: its link id, grid lines and properties as JSON values.
    struct DecodedFeature {
        var id: UInt64
        var lines: [[(x: Double, y: Double)]]
        var properties: [String: Any]
    }

    /// Writes `tiles` to files, decodes them in one run of the decoder, returns the `roads` layers.
    static func decode(_ tiles: [(TileAddress, [UInt8])]) throws -> [TileAddress: [DecodedFeature]] {
        let folder = ScratchDirectory.url("mvt")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String: TileAddress] = [:]
        for (address, bytes) in tiles {
            let path = folder.appendingPathComponent("\(address.zoom)-\(address.x)-\(address.y).pbf").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths[path] = address
        }
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Repository.url("Tests/MapTilesTests/decode_mvt.py").path] + paths.keys.sorted())
        try #require(result.status == 0, "decoder failed (run Tools/install-dependencies): \(result.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
        var decoded: [TileAddress: [DecodedFeature]] = [:]
        for (path, layers) in json {
            let address = try #require(paths[path])
            let roads = layers["roads"] as? [String: Any]
            #expect(roads?["extent"] as? Int == 4096)
            var features: [DecodedFeature] = []
            for feature in roads?["features"] as? [[String: Any]] ?? [] {
                let geometry = try #require(feature["geometry"] as? [String: Any])
                let coordinates = geometry["coordinates"]
                let lines: [[[Double]]]
                if geometry["type"] as? String == "LineString" {
                    lines = [try #require(coordinates as? [[Double]])]
                } else {
                    #expect(geometry["type"] as? String == "MultiLineString")
                    lines = try #require(coordinates as? [[[Double]]])
                }
                features.append(
                    DecodedFeature(
                        id: try #require((feature["id"] as? NSNumber)?.uint64Value),
                        lines: lines.map { $0.map { (x: $0[0], y: $0[1]) } },
                        properties: feature["properties"] as? [String: Any] ?? [:]))
            }
            decoded[address] = features
        }
        return decoded
    }

    /// The z14 tiles covering the map's bounding box.
    static func z14Tiles(_ map: MapFile) throws -> [TileAddress] {
        let box = map.metadata.boundingBox
        let northWest = try TileAddress(containing: GeoPoint(latitude: box[2], longitude: box[1]), zoom: 14)
        let southEast = try TileAddress(containing: GeoPoint(latitude: box[0], longitude: box[3]), zoom: 14)
        var result: [TileAddress] = []
        for x in northWest.x...southEast.x {
            for y in northWest.y...southEast.y { result.append(try TileAddress(zoom: 14, x: x, y: y)) }
        }
        return result
    }

    @Test("every z14 tile decodes to the map's links: geometry within 1 m, attributes equal")
    func tilesMatchTheMap() throws {
        let map = try MapFile(path: try Self.mapPath.get())
        let source = RoadTileSource(network: map)
        let addresses = try Self.z14Tiles(map)
        #expect(addresses.count >= 4)
        let decoded = try Self.decode(try addresses.map { ($0, try source.tile($0)) })
        var featuresChecked = 0
        for address in addresses {
            let features = try #require(decoded[address], "\(address) not decoded")
            var linesByID: [UInt64: [[GeoPoint]]] = [:]
            for feature in features {
                let link = try map.link(LinkID(feature.id))
                let geographic = feature.lines.map { line in
                    line.map { address.point(gridX: $0.x, gridY: $0.y, extent: 4096) }
                }
                linesByID[feature.id, default: []] += geographic
                for point in geographic.joined() {
                    let distance = try #require(link.geometry.project(point)).distance
                    #expect(distance <= 1, "\(address) link \(link.id): decoded point \(distance) m off the link")
                }
                try Self.checkProperties(feature.properties, of: link)
                featuresChecked += 1
            }
            // Completeness: every vertex of every link inside the tile lies on a decoded line.
            let centre = address.point(gridX: 2048, gridY: 2048, extent: 4096)
            let corner = address.point(gridX: 0, gridY: 0, extent: 4096)
            for link in try map.links(near: centre, radius: centre.distance(to: corner)) {
                for point in link.geometry {
                    let grid = address.gridPosition(point, extent: 4096)
                    guard (0...4096).contains(grid.x), (0...4096).contains(grid.y) else { continue }
                    let lines = try #require(linesByID[link.id.rawValue], "\(address): link \(link.id) missing")
                    let nearest = lines.compactMap { $0.project(point)?.distance }.min() ?? .infinity
                    #expect(nearest <= 1, "\(address) link \(link.id): map vertex \(nearest) m from the tile's line")
                }
            }
        }
        #expect(featuresChecked > 1000)
        #expect(source.tilesBuilt == addresses.count)
        _ = try source.tile(addresses[0])
        #expect(source.tilesBuilt == addresses.count, "a repeated request is answered from the cache")
    }

    /// The decoded properties equal the link's attributes, as the layer documents them.
    static func checkProperties(_ properties: [String: Any], of link: RoadLink) throws {
        let classes: [HighwayClass: String] = [
            .motorway: "motorway", .trunk: "trunk", .primary: "primary", .secondary: "secondary",
            .tertiary: "tertiary", .unclassified: "unclassified", .residential: "residential",
            .livingStreet: "living_street", .service: "service", .motorwayLink: "motorway_link",
            .trunkLink: "trunk_link", .primaryLink: "primary_link", .secondaryLink: "secondary_link",
            .tertiaryLink: "tertiary_link",
        ]
        #expect(properties["class"] as? String == classes[link.highway])
        #expect(properties["functional_class"] as? Int == Int(link.highway.functionalClass))
        #expect(properties["name"] as? String == link.name)
        #expect(properties["ref"] as? String == link.ref)
        #expect(properties["tunnel"] as? Bool == link.tunnel)
        #expect(properties["bridge"] as? Bool == link.bridge)
        let oneway = [Oneway.no: 0, .forward: 1, .backward: -1][link.oneway]
        #expect(properties["oneway"] as? Int == oneway)
        for (direction, key) in [(LinkDirection.forward, "maxspeed_forward"), (.backward, "maxspeed_backward")] {
            let value = properties[key]
            guard link.oneway.allows(direction) else {
                #expect(value == nil, "\(key) on a closed direction of \(link.id)")
                continue
            }
            switch link.attributes(direction).speedLimit.value {
            case .kilometresPerHour(let limit): #expect(value as? Int == Int(limit.rounded()))
            case .unlimited: #expect(value as? String == "none")
            case .unknown: #expect(value == nil)
            }
        }
        let known: Set<String> = [
            "class", "functional_class", "name", "ref", "tunnel", "bridge", "oneway", "maxspeed_forward",
            "maxspeed_backward",
        ]
        #expect(Set(properties.keys).isSubset(of: known), "unexpected properties \(properties.keys)")
    }
}
