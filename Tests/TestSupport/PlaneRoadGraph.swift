import RoadMap

/// Small road networks for tests, laid out on a local plane in metres east (x) and north (y) of
/// an origin (by default a point in central Helsinki).
///
/// Two ways to add a link: ``road(_:_:_:highway:name:ref:oneway:via:edit:)`` between junctions
/// placed with ``node(_:_:_:)`` (way id = 10 × link id), or ``add(_:_:_:_:oneway:highway:wayID:edit:)``
/// through explicit plane points (way id = link id unless given).
public struct PlaneRoadGraph {
    /// The default origin: 60.17° N, 24.94° E.
    public static let origin = GeoPoint(latitude: 60.17, longitude: 24.94)

    /// The plane around the origin.
    public let projection: LocalProjection
    /// Junctions by node id: plane coordinates in metres.
    public var nodes: [Int64: (x: Double, y: Double)] = [:]
    /// Every link added, in order.
    public var links: [RoadLink] = []
    /// Turn restrictions of the network.
    public var restrictions: [TurnRestriction] = []

    /// An empty graph around `origin`.
    public init(origin: GeoPoint = PlaneRoadGraph.origin) {
        projection = LocalProjection(origin: origin)
    }

    /// The point `x` metres east and `y` metres north of the origin.
    public func point(_ x: Double, _ y: Double) -> GeoPoint { projection.unproject(x: x, y: y) }

    /// Places junction `id` at (`x`, `y`) metres.
    public mutating func node(_ id: Int64, _ x: Double, _ y: Double) { nodes[id] = (x, y) }

    /// Adds link `id` from junction `from` to junction `to` (both placed before), straight or bent
    /// through the plane points `via`; `edit` sets further attributes. Its way id is 10 × `id`.
    public mutating func road(
        _ id: UInt64, _ from: Int64, _ to: Int64, highway: HighwayClass = .residential,
        name: String? = nil, ref: String? = nil, oneway: Oneway = .no,
        via: [(Double, Double)] = [], edit: (inout RoadLink) -> Void = { _ in }
    ) {
        guard let a = nodes[from], let b = nodes[to] else {
            preconditionFailure("place nodes \(from) and \(to) with node(_:_:_:) before road \(id)")
        }
        let points = [(a.x, a.y)] + via + [(b.x, b.y)]
        var link = RoadLink(
            id: LinkID(id), wayID: Int64(id) * 10, startNode: NodeID(from), endNode: NodeID(to),
            geometry: points.map { point($0.0, $0.1) }, highway: highway,
            name: name, ref: ref, oneway: oneway)
        edit(&link)
        links.append(link)
    }

    /// Adds link `id` from node `from` to node `to` through the plane points `shape`; its way id
    /// is `wayID`, or `id` when not given.
    public mutating func add(
        _ id: UInt64, _ from: Int64, _ to: Int64, _ shape: [(Double, Double)],
        oneway: Oneway = .no, highway: HighwayClass = .residential, wayID: Int64? = nil,
        edit: (inout RoadLink) -> Void = { _ in }
    ) {
        var link = RoadLink(
            id: LinkID(id), wayID: wayID ?? Int64(id), startNode: NodeID(from), endNode: NodeID(to),
            geometry: shape.map { point($0.0, $0.1) }, highway: highway, oneway: oneway)
        edit(&link)
        links.append(link)
    }

    /// The network of everything added.
    public var network: InMemoryRoadNetwork { InMemoryRoadNetwork(links: links, restrictions: restrictions) }

    /// A 4-way junction at node 0: link 1 comes in from the west (node 1 → 0), links 2 (east, 0 → 2),
    /// 3 (north, 0 → 3) and 4 (south, 0 → 4) leave it; arms are 100 m long.
    public static func fourWay() -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        graph.node(1, -100, 0)
        graph.node(2, 100, 0)
        graph.node(3, 0, 100)
        graph.node(4, 0, -100)
        graph.road(1, 1, 0)
        graph.road(2, 0, 2)
        graph.road(3, 0, 3)
        graph.road(4, 0, 4)
        return graph
    }

    /// ``fourWay()`` with a 40 m street on from the east arm's end (link 5, to node 5) that ends
    /// in a turning loop (links 6 and 7 back to node 2): a court.
    public static func fourWayWithCourt() -> PlaneRoadGraph {
        var graph = fourWay()
        graph.node(5, 140, 0)
        graph.node(6, 160, 20)
        graph.road(5, 2, 5)
        graph.road(6, 5, 6)
        graph.road(7, 6, 2)
        return graph
    }

    /// A plus-shaped junction: four 100 m arms leave node 0, arm `i` to node `i` (1 north, 2 east,
    /// 3 south, 4 west); arm 1 is one-way towards node 0 when `onewayNorthInbound`.
    public static func crossing(onewayNorthInbound: Bool = false, restrictions: [TurnRestriction] = [])
        -> PlaneRoadGraph
    {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        for (id, x, y) in [(1, 0.0, 100.0), (2, 100, 0), (3, 0, -100), (4, -100, 0)] {
            graph.node(Int64(id), x, y)
            graph.road(UInt64(id), 0, Int64(id), oneway: id == 1 && onewayNorthInbound ? .backward : .no)
        }
        graph.restrictions = restrictions
        return graph
    }

    /// An east-going chain of `count` links of `length` metres (link i from node i−1 to node i, node
    /// 0 at x = 0), each junction with a 100 m side road to the north (link 100+i, node 100+i) —
    /// the side road at node i leaves after link i. `sideEvery` picks which junctions get one.
    public static func street(count: Int, length: Double = 100, sideEvery: Int = 1) -> PlaneRoadGraph {
        var graph = PlaneRoadGraph()
        graph.node(0, 0, 0)
        for i in 1...count {
            graph.node(Int64(i), Double(i) * length, 0)
            graph.road(UInt64(i), Int64(i - 1), Int64(i), highway: .secondary, name: "Main")
            if i % sideEvery == 0 && i < count {
                graph.node(Int64(100 + i), Double(i) * length, 100)
                graph.road(UInt64(100 + i), Int64(i), Int64(100 + i))
            }
        }
        return graph
    }
}
