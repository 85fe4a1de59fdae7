import Testing
@testable import RoadMap
import TestSupport

/// A plus-shaped junction: four 100 m arms meeting at node 0, arm `i` from node 0 to node `i`.
private func crossing(onewayNorthInbound: Bool = false, restrictions: [TurnRestriction] = []) -> InMemoryRoadNetwork {
    PlaneRoadGraph.crossing(onewayNorthInbound: onewayNorthInbound, restrictions: restrictions).network
}

@Test func geometryLengthAndProjection() throws {
    let network = crossing()
    let east = try network.link(LinkID(2))
    #expect(abs(east.length - 100) < 0.1)
    // A point 10 m north of the east arm's middle projects to offset ~50 m, distance ~10 m.
    let plane = LocalProjection(origin: east.geometry[0])
    let projection = try #require(east.geometry.project(plane.unproject(x: 50, y: 10)))
    #expect(abs(projection.offset - 50) < 0.2)
    #expect(abs(projection.distance - 10) < 0.2)
    #expect(abs(projection.bearing - 90) < 0.5)
}

@Test func spatialQueryFindsOnlyLinksWithinRadius() throws {
    let network = crossing()
    let centre = GeoPoint(latitude: 60.17, longitude: 24.94)
    let plane = LocalProjection(origin: centre)
    // 60 m east, 20 m north: the east arm is 20 m away, the north arm 60 m, the other arms 63 m (at the centre).
    let near = try network.links(near: plane.unproject(x: 60, y: 20), radius: 30).map(\.id)
    #expect(near == [LinkID(2)])
    let wider = try network.links(near: plane.unproject(x: 60, y: 20), radius: 62).map(\.id)
    #expect(wider == [LinkID(1), LinkID(2)])
}

@Test func successorsRespectOnewayAndIncludeLegalUTurn() throws {
    let network = crossing(onewayNorthInbound: true)
    // Driving the south arm towards the centre (backward: node 3 → node 0).
    let fromSouth = DirectedLink(LinkID(3), .backward)
    let next = try network.successors(of: fromSouth)
    // North arm is one-way towards the centre: it cannot be entered; the U-turn onto 3 is listed.
    #expect(
        next == [
            DirectedLink(LinkID(2), .forward), DirectedLink(LinkID(3), .forward),
            DirectedLink(LinkID(4), .forward),
        ])
}

@Test func incomingListsTheLinksArrivingAtANodeThatOnewayAllows() throws {
    let network = crossing(onewayNorthInbound: true)
    // Every arm arrives at the centre (arm i runs from node 0 to node i, so backwards), the
    // one-way north arm included; at the north end only the arms ending there, driven forwards.
    #expect(try network.incoming(to: NodeID(0)) == (1...4).map { DirectedLink(LinkID(UInt64($0)), .backward) })
    #expect(try network.incoming(to: NodeID(1)).isEmpty, "the north arm is one-way towards the centre")
    #expect(try network.incoming(to: NodeID(2)) == [DirectedLink(LinkID(2), .forward)])
}

@Test func turnRestrictionsForbidOrMandate() throws {
    let noLeft = crossing(restrictions: [
        TurnRestriction(from: LinkID(3), via: NodeID(0), to: LinkID(4), kind: .prohibitory)
    ])
    #expect(
        try noLeft.successors(of: DirectedLink(LinkID(3), .backward)).map(\.link) == [LinkID(1), LinkID(2), LinkID(3)])
    let onlyStraight = crossing(restrictions: [
        TurnRestriction(from: LinkID(3), via: NodeID(0), to: LinkID(1), kind: .mandatory)
    ])
    #expect(try onlyStraight.successors(of: DirectedLink(LinkID(3), .backward)) == [DirectedLink(LinkID(1), .forward)])
    // Restrictions do not apply at the other end of the link: the dead end offers only the U-turn.
    #expect(try onlyStraight.successors(of: DirectedLink(LinkID(3), .forward)) == [DirectedLink(LinkID(3), .backward)])
}

@Test func unknownLinkIsATypedError() {
    #expect(throws: InMemoryRoadNetwork.LookupError.unknownLink(LinkID(99))) {
        try crossing().link(LinkID(99))
    }
}

/// Danger zones are derived from the links a layer's features give a camera too.
@Test("an overlay's links with a safety location: the base's and those its features give one, as a filtered query")
func overlayLinksWithSafetyLocations() throws {
    let network = crossing()
    let camera = PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 40, direction: nil)
    let signals = PointFeature(kind: .trafficSignals, offset: 10, direction: nil)
    let base = FeatureOverlayNetwork(base: network, featuresOfLink: [LinkID(1): [camera]])
    let overlay = FeatureOverlayNetwork(base: base, featuresOfLink: [LinkID(3): [camera], LinkID(4): [signals]])
    let centre = GeoPoint(latitude: 60.17, longitude: 24.94)
    let plane = LocalProjection(origin: centre)
    let cameras: Set<RoadObjectType> = [.fixedSpeedCamera, .redLightCamera]
    for (x, y, radius) in [(0.0, 0.0, 150.0), (0, 60, 30), (0, -60, 30), (60, 0, 20)] {
        let point = plane.unproject(x: x, y: y)
        let expected = try overlay.links(near: point, radius: radius)
            .filter { $0.features.contains(where: \.isSafetyLocationStart) }
        #expect(try overlay.linksWithSafetyLocations(near: point, radius: radius, of: cameras) == expected)
    }
    #expect(
        try overlay.linksWithSafetyLocations(near: centre, radius: 150, of: cameras).map(\.id) == [
            LinkID(1), LinkID(3),
        ])
    // Only the types asked for: no red-light camera anywhere.
    #expect(try overlay.linksWithSafetyLocations(near: centre, radius: 150, of: [.redLightCamera]).isEmpty)
}
