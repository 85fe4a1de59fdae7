/// Read access to a road graph: what the matcher and the horizon engine call per GNSS fix.
///
/// Two implementations: ``InMemoryRoadNetwork`` (built from links, for tests and import) and the
/// tiled map file reader. Calls may read tiles from disk, hence `throws`.
public protocol RoadNetwork: AnyObject {
    /// The link with identifier `id`.
    func link(_ id: LinkID) throws -> RoadLink

    /// Links with any part of their geometry within `radius` metres of `point`.
    func links(near point: GeoPoint, radius: Double) throws -> [RoadLink]

    /// Directed links a vehicle may legally enter after driving `directedLink` to its end:
    /// oneway and turn restrictions respected. The reverse of `directedLink` itself (a U-turn) is
    /// included when legal; callers decide whether to offer it.
    func successors(of directedLink: DirectedLink) throws -> [DirectedLink]

    /// Every directed link leaving `node` that oneway allows, regardless of turn restrictions.
    func outgoing(from node: NodeID) throws -> [DirectedLink]

    /// Every directed link arriving at `node` that oneway allows, regardless of turn restrictions
    /// (what a search backwards from a link, as the route planner's, starts from).
    func incoming(to node: NodeID) throws -> [DirectedLink]

    /// The longest way on from the start of `directedLink` as the map stores it
    /// (``LongestWaysOn``): the exact length, metres, when it is at most
    /// ``LongestWaysOn/storedLimit``; `.infinity` when it is longer or reaches a loop; `nil` when
    /// this network does not store it (the caller searches ``successors(of:)`` itself).
    func longestWayOn(_ directedLink: DirectedLink) throws -> Double?

    /// The links of ``links(near:radius:)`` that hold a safety location's own point of one of
    /// `types` (``PointFeature/safetyLocationStartType``), in the same order: what danger zones
    /// are derived from, over the longest zone's length around the vehicle. The map file answers
    /// it from an index, without reading the tiles of that area that hold none; a layer over
    /// another network passes it down.
    func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
}

extension RoadNetwork {
    /// Not stored: `nil` (a network held in memory, a test's).
    public func longestWayOn(_ directedLink: DirectedLink) throws -> Double? { nil }

    /// ``links(near:radius:)`` less the links without a safety location of one of `types` (a
    /// network held in memory).
    public func linksWithSafetyLocations(near point: GeoPoint, radius: Double, of types: Set<RoadObjectType>) throws
        -> [RoadLink]
    {
        try links(near: point, radius: radius).filter { $0.holdsSafetyLocation(of: types) }
    }
}

import Foundation

/// A road graph held in memory, with a grid index for spatial queries.
public final class InMemoryRoadNetwork: RoadNetwork {
    private var linksByID: [LinkID: RoadLink] = [:]
    private var linksAtNode: [NodeID: [LinkID]] = [:]
    private var restrictionsFrom: [LinkID: [TurnRestriction]] = [:]
    private var grid: [GridCell: [LinkID]] = [:]
    private let cellSize = 0.002  // degrees, ~220 m of latitude

    private struct GridCell: Hashable { var x: Int32, y: Int32 }

    /// Errors of the in-memory graph.
    public enum LookupError: Error, Hashable, Sendable {
        /// No link with this identifier.
        case unknownLink(LinkID)
    }

    /// All links, sorted by identifier.
    public var allLinks: [RoadLink] { linksByID.values.sorted { $0.id < $1.id } }

    /// All turn restrictions.
    public var allRestrictions: [TurnRestriction] {
        restrictionsFrom.values.flatMap { $0 }.sorted { ($0.from, $0.via, $0.to) < ($1.from, $1.via, $1.to) }
    }

    /// Creates a graph from links and turn restrictions.
    public init(links: [RoadLink], restrictions: [TurnRestriction] = []) {
        for link in links { insert(link) }
        for restriction in restrictions { restrictionsFrom[restriction.from, default: []].append(restriction) }
    }

    private func insert(_ link: RoadLink) {
        linksByID[link.id] = link
        linksAtNode[link.startNode, default: []].append(link.id)
        if link.endNode != link.startNode { linksAtNode[link.endNode, default: []].append(link.id) }
        var cells = Set<GridCell>()
        for point in link.geometry { cells.insert(cell(of: point)) }
        // Long straight segments cross cells between their points: sample them.
        for i in 1..<max(1, link.geometry.count) {
            let a = link.geometry[i - 1], b = link.geometry[i]
            let steps = Int(max(abs(b.latitude - a.latitude), abs(b.longitude - a.longitude)) / (cellSize / 2))
            if steps > 0 {
                for s in 1...steps {
                    let t = Double(s) / Double(steps + 1)
                    cells.insert(
                        cell(
                            of: GeoPoint(
                                latitude: a.latitude + (b.latitude - a.latitude) * t,
                                longitude: a.longitude + (b.longitude - a.longitude) * t)))
                }
            }
        }
        for c in cells { grid[c, default: []].append(link.id) }
    }

    private func cell(of point: GeoPoint) -> GridCell {
        GridCell(
            x: Int32((point.longitude / cellSize).rounded(.down)),
            y: Int32((point.latitude / cellSize).rounded(.down)))
    }

    public func link(_ id: LinkID) throws -> RoadLink {
        guard let link = linksByID[id] else { throw LookupError.unknownLink(id) }
        return link
    }

    public func links(near point: GeoPoint, radius: Double) throws -> [RoadLink] {
        let dLat = radius / 111_000
        let dLon = radius / (111_000 * max(0.01, cos(point.latitude * .pi / 180)))
        let low = cell(of: GeoPoint(latitude: point.latitude - dLat, longitude: point.longitude - dLon))
        let high = cell(of: GeoPoint(latitude: point.latitude + dLat, longitude: point.longitude + dLon))
        var seen = Set<LinkID>()
        var result: [RoadLink] = []
        for x in low.x...high.x {
            for y in low.y...high.y {
                for id in grid[GridCell(x: x, y: y)] ?? [] where !seen.contains(id) {
                    seen.insert(id)
                    guard let link = linksByID[id] else { continue }
                    if link.geometry.passes(within: radius, of: point) { result.append(link) }
                }
            }
        }
        return result.sorted { $0.id < $1.id }
    }

    public func incoming(to node: NodeID) throws -> [DirectedLink] {
        var result: [DirectedLink] = []
        for id in linksAtNode[node] ?? [] {
            guard let link = linksByID[id] else { continue }
            if link.endNode == node, link.oneway.allows(.forward) { result.append(DirectedLink(id, .forward)) }
            if link.startNode == node, link.oneway.allows(.backward) { result.append(DirectedLink(id, .backward)) }
        }
        return result.sorted()
    }

    public func outgoing(from node: NodeID) throws -> [DirectedLink] {
        var result: [DirectedLink] = []
        for id in linksAtNode[node] ?? [] {
            guard let link = linksByID[id] else { continue }
            if link.startNode == node, link.oneway.allows(.forward) { result.append(DirectedLink(id, .forward)) }
            if link.endNode == node, link.oneway.allows(.backward) { result.append(DirectedLink(id, .backward)) }
        }
        return result.sorted()
    }

    public func successors(of directedLink: DirectedLink) throws -> [DirectedLink] {
        let link = try link(directedLink.link)
        let node = link.exitNode(directedLink.direction)
        let candidates = try outgoing(from: node)
        let restrictions = (restrictionsFrom[directedLink.link] ?? []).filter { $0.via == node }
        if restrictions.isEmpty { return candidates }
        return candidates.filter { TurnRestriction.permit(restrictions, turnInto: $0.link) }
    }
}
