import RoadMap
import Testing
@testable import RoadMapStore

@Suite("road link tile coding")
struct RoadLinkCodingTests {
    static let link = RoadLink(
        id: LinkID(tile: TileKey(containing: GeoPoint(latitude: 60.17, longitude: 24.94)), index: 7),
        wayID: 4_242_424, startNode: NodeID(rawValue: 11), endNode: NodeID(rawValue: 12),
        geometry: [
            GeoPoint(latitude: 60.1700001, longitude: 24.9400002),
            GeoPoint(latitude: 60.1710003, longitude: 24.9420004),
        ],
        highway: .primary, formOfWay: .multipleCarriageway, name: "Mannerheimintie", ref: "137", oneway: .forward,
        forward: DirectionalAttributes(
            speedLimit: SpeedLimit(value: .kilometresPerHour(48.28032), kind: .explicit), lanes: 2),
        backward: DirectionalAttributes(speedLimit: SpeedLimit(value: .unlimited, kind: .implicit), lanes: nil),
        tunnel: true, bridge: false, builtUpArea: nil, dividedRoad: true, countryCode: 246, regionCode: 18,
        curvature: [ProfilePoint(offset: 12.5, value: -0.01)], slope: [ProfilePoint(offset: 0, value: 4.5)],
        features: [
            PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 30.25, direction: .forward),
            PointFeature(kind: .trafficSignals, offset: 99, direction: nil),
            PointFeature(kind: .tollBooth, offset: 5, direction: nil),
            PointFeature(kind: .borderControl, offset: 6, direction: .backward),
            PointFeature(kind: .railwayCrossing, offset: 7, direction: nil),
            PointFeature(kind: .safetyCamera(.restriction, speedLimit: nil), offset: 8, direction: nil),
            PointFeature(
                kind: .zone(
                    ZonePiece(
                        type: .averageSpeedZone, zone: -4_711, length: 12.5, isZoneStart: true, isZoneEnd: false,
                        speedLimit: 80)), offset: 9, direction: .forward),
            PointFeature(
                kind: .zone(
                    ZonePiece(
                        type: .dangerZone, zone: 1, length: 3, isZoneStart: false, isZoneEnd: true, speedLimit: nil)),
                offset: 10, direction: .backward),
            PointFeature(
                kind: .zone(
                    ZonePiece(
                        type: .hazard, zone: 5, length: 40, isZoneStart: true, isZoneEnd: true, speedLimit: nil,
                        hazard: .frostHeave)), offset: 11, direction: .forward),
            PointFeature(
                kind: .zone(
                    ZonePiece(
                        type: .hazard, zone: -6, length: 0, isZoneStart: true, isZoneEnd: true, speedLimit: nil,
                        hazard: .other)), offset: 12, direction: nil),
        ])

    @Test("a link with every attribute set round-trips exactly")
    func roundTrip() throws {
        var writer = TileByteWriter()
        RoadLinkCoding.encode(Self.link, into: &writer)
        RoadLinkCoding.encode(Self.link, into: &writer)
        var reader = TileByteReader(writer.bytes)
        #expect(try RoadLinkCoding.decode(from: &reader) == Self.link)
        #expect(try RoadLinkCoding.decode(from: &reader) == Self.link)
        #expect(reader.isAtEnd)
    }

    @Test("every truncation of an encoded link is a typed error, never a crash")
    func truncations() {
        var writer = TileByteWriter()
        RoadLinkCoding.encode(Self.link, into: &writer)
        for length in 0..<writer.bytes.count {
            var reader = TileByteReader(Array(writer.bytes.prefix(length)))
            #expect(throws: TileDecodingError.self) { try RoadLinkCoding.decode(from: &reader) }
        }
    }
}
