import Foundation
import OpenLR
import RoadMap
import RoadMapStore
import Testing
import Traffic

/// Incidents and congestion laid over the sample map as zone pieces the horizon derives road
/// objects from: on the covered part of each link, in the driving direction only.
@Suite struct TrafficObjectOverlayTests {
    static let now = TrafficFeedParserTests.now

    /// The zone pieces of `type` on `link` in `network`, with their feature offsets.
    static func pieces(_ type: RoadObjectType, on link: LinkID, in network: any RoadNetwork) throws -> [(
        feature: PointFeature, piece: ZonePiece
    )] {
        try network.link(link).features.compactMap { feature in
            if case .zone(let piece) = feature.kind, piece.type == type { (feature, piece) } else { nil }
        }
    }

    @Test func anIncidentAgainstTheLinksGeometryCoversItsPartFromTheOtherEnd() throws {
        let map = try SampleMap.map()
        // A two-way link of at least 80 m near the centre, driven backward, minus 10 m at the
        // entry and 20 m at the exit (OpenLR offsets, 1/256 of the length resolution).
        let link = try #require(
            try map.links(near: GeoPoint(latitude: 60.1699, longitude: 24.9384), radius: 600).first {
                $0.oneway.allows(.backward) && $0.oneway.allows(.forward) && $0.length > 80
            })
        let reference = try LineLocationEncoder(network: map).encode(
            [DirectedLink(link.id, .backward)], startOffset: 10, endOffset: 20)
        let incidents = """
            [{"id": "crash", "iconCategory": 1, "openlr": "\(try OpenLRBinary.encode(reference))"}]
            """
        let flow = """
            [{"links": ["L\(link.id.rawValue)+"], "currentSpeed": 12, "freeFlowSpeed": 50},
             {"links": ["L\(link.id.rawValue)-"], "currentSpeed": 30, "freeFlowSpeed": 50}]
            """
        let feed = try TrafficFeedParser.parse(
            TrafficFeedParserTests.feed(flow: flow, incidents: incidents), now: Self.now)
        let layer = TrafficLayer(feed: feed, network: map)
        #expect(layer.congestion.map(\.position) == ["flowSegments[0]"], "30 of 50 km/h is not congestion")
        let overlay = TrafficObjectOverlay(base: map, layer: layer, at: Self.now)
        #expect(overlay.objectCount == 2)

        let incident = try Self.pieces(.incident, on: link.id, in: overlay)
        try #require(incident.count == 1)
        #expect(incident[0].feature.direction == .backward)
        // Backward, the exit is the geometry's start: the piece begins 20 m along the geometry.
        #expect(abs(incident[0].feature.offset - 20) < 1.5, "\(incident[0].feature)")
        #expect(abs(incident[0].piece.length - (link.length - 30)) < 2, "\(incident[0].piece)")
        #expect(incident[0].piece.isZoneStart && incident[0].piece.isZoneEnd)

        let congestion = try Self.pieces(.congestion, on: link.id, in: overlay)
        #expect(congestion.count == 1 && congestion[0].feature.direction == .forward)
        #expect(congestion[0].feature.offset == 0 && abs(congestion[0].piece.length - link.length) < 0.01)
        #expect(congestion[0].piece.speedLimit == 12, "the traffic speed rides in the zone's value")

        // The same identifiers from the next feed; nothing once the feed has expired.
        let again = TrafficObjectOverlay(base: map, layer: layer, at: Self.now.addingTimeInterval(10))
        #expect(try Self.pieces(.incident, on: link.id, in: again).map(\.piece.zone) == incident.map(\.piece.zone))
        let expired = TrafficObjectOverlay(base: map, layer: layer, at: Self.now.addingTimeInterval(400))
        #expect(expired.objectCount == 0)
        #expect(try expired.link(link.id).features == map.link(link.id).features)
    }
}
