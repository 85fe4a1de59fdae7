/// A road network with extra point features (points and zone pieces) laid over the links of
/// another: ``link(_:)`` and ``links(near:radius:)`` return the base's links with the extra
/// features merged in offset order; the graph itself (successors, outgoing, incoming) passes
/// through unchanged.
///
/// The one overlay of the project: the traffic layer's incidents and congestion
/// (`TrafficObjectOverlay`) and the client's custom objects (`CustomObjectOverlay`) are made
/// with it, each computing its features once when it is made. Overlays stack: an overlay's base
/// may be another overlay or layered network (``RoadNetwork/layers``).
open class FeatureOverlayNetwork: LayeredRoadNetwork {
    /// The network underneath.
    public let base: any RoadNetwork
    /// The extra features of each link, as given.
    private let featuresOfLink: [LinkID: [PointFeature]]
    /// The links given a safety location by the extra features, with its types.
    private let linksGivenSafetyLocations: [(id: LinkID, types: Set<RoadObjectType>)]

    /// `featuresOfLink` laid over `base`: each link's extra features are added to its own.
    public init(base: any RoadNetwork, featuresOfLink: [LinkID: [PointFeature]]) {
        self.base = base
        self.featuresOfLink = featuresOfLink
        linksGivenSafetyLocations = featuresOfLink.compactMap { id, features in
            let types = Set(features.compactMap(\.safetyLocationStartType))
            return types.isEmpty ? nil : (id, types)
        }.sorted { $0.id < $1.id }
    }

    /// The network underneath (``base``).
    public var underlying: any RoadNetwork { base }

    /// `link` with the extra features of its identifier, all sorted by offset.
    private func overlaid(_ link: RoadLink) -> RoadLink {
        guard let extra = featuresOfLink[link.id] else { return link }
        var result = link
        result.features = (link.features + extra).sorted { $0.offset < $1.offset }
        return result
    }

    public func link(_ id: LinkID) throws -> RoadLink { overlaid(try base.link(id)) }

    public func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        try base.links(near: point, radius: radius).map(overlaid)
    }

    /// The base's links with a safety location of one of `types`, and the links the extra
    /// features give one, within `radius` of `point`, each with the extra features; sorted by
    /// identifier.
    open func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
    {
        var result = try base.linksWithSafetyLocations(near: point, radius: radius, of: types).map(overlaid)
        let held = Set(result.map(\.id))
        for (id, given) in linksGivenSafetyLocations where !held.contains(id) && !given.isDisjoint(with: types) {
            let link = try base.link(id)
            if link.geometry.passes(within: radius, of: point) { result.append(overlaid(link)) }
        }
        return result.sorted { $0.id < $1.id }
    }

    public func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        try base.successors(of: directedLink)
    }

    public func outgoing(from node: NodeID) throws -> [DirectedLink] { try base.outgoing(from: node) }

    public func incoming(to node: NodeID) throws -> [DirectedLink] { try base.incoming(to: node) }

    public func longestWayOn(_ directedLink: DirectedLink) throws -> Double? {
        try base.longestWayOn(directedLink)
    }
}
