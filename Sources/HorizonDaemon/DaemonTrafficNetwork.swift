import RoadMap

/// The network the daemon's horizon reads: the map, or the map with the traffic's objects laid
/// over it, switched in place when the traffic changes so that the running pipeline reads the new
/// objects without being replaced (`DaemonCore+Traffic.swift`).
final class DaemonTrafficNetwork: LayeredRoadNetwork {
    /// What is read now.
    var current: any RoadNetwork

    /// A network reading `current`.
    init(_ current: any RoadNetwork) { self.current = current }

    /// The network read now (``current``), so that the custom objects under the traffic keep their ids.
    var underlying: any RoadNetwork { current }

    func link(_ id: LinkID) throws -> RoadLink { try current.link(id) }

    func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        try current.links(near: point, radius: radius)
    }

    func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
    {
        try current.linksWithSafetyLocations(near: point, radius: radius, of: types)
    }

    func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        try current.successors(of: directedLink)
    }

    func outgoing(from node: NodeID) throws -> [DirectedLink] { try current.outgoing(from: node) }

    func incoming(to node: NodeID) throws -> [DirectedLink] { try current.incoming(to: node) }

    func longestWayOn(_ directedLink: DirectedLink) throws -> Double? {
        try current.longestWayOn(directedLink)
    }
}
