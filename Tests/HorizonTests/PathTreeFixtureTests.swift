import Testing
import RoadMap
@testable import Horizon

/// Builds small road graphs on a local plane (metres east/north of a point in Helsinki).
struct TestGraph {
    static let origin = GeoPoint(latitude: 60.17, longitude: 24.94)
    let projection = LocalProjection(origin: TestGraph.origin)
    var nodes: [Int64: (x: Double, y: Double)] = [:]
    var links: [RoadLink] = []
    var restrictions: [TurnRestriction] = []

    /// Adds a junction at (x, y) metres.
    mutating func node(_ id: Int64, _ x: Double, _ y: Double) { nodes[id] = (x, y) }

    /// Adds a straight (or bent, through `via` points) link from node `from` to node `to`.
    mutating func road(_ id: UInt64, _ from: Int64, _ to: Int64, highway: HighwayClass = .residential,
                       name: String? = nil, ref: String? = nil, oneway: Oneway = .no,
                       via: [(Double, Double)] = [], edit: (inout RoadLink) -> Void = { _ in }) {
        let a = nodes[from]!, b = nodes[to]!
        let points = [(a.x, a.y)] + via + [(b.x, b.y)]
        var link = RoadLink(id: LinkID(id), wayID: Int64(id) * 10, startNode: NodeID(from), endNode: NodeID(to),
                            geometry: points.map { projection.unproject(x: $0.0, y: $0.1) }, highway: highway,
                            name: name, ref: ref, oneway: oneway)
        edit(&link)
        links.append(link)
    }

    /// The network of everything added.
    func network() -> InMemoryRoadNetwork { InMemoryRoadNetwork(links: links, restrictions: restrictions) }

    /// A point `x, y` metres from the origin.
    func point(_ x: Double, _ y: Double) -> GeoPoint { projection.unproject(x: x, y: y) }

    /// A 4-way junction at node 0: link 1 comes in from the west (node 1 → 0), links 2 (east, 0 → 2),
    /// 3 (north, 0 → 3) and 4 (south, 0 → 4) leave it; arms are 100 m long.
    static func fourWay() -> TestGraph {
        var graph = TestGraph()
        graph.node(0, 0, 0); graph.node(1, -100, 0); graph.node(2, 100, 0); graph.node(3, 0, 100); graph.node(4, 0, -100)
        graph.road(1, 1, 0); graph.road(2, 0, 2); graph.road(3, 0, 3); graph.road(4, 0, 4)
        return graph
    }

    /// An east-going chain of `count` links of `length` metres (link i from node i−1 to node i, node
    /// 0 at x = 0), each junction with a 100 m side road to the north (link 100+i, node 100+i) —
    /// the side road at node i leaves after link i. `sideEvery` picks which junctions get one.
    static func street(count: Int, length: Double = 100, sideEvery: Int = 1) -> TestGraph {
        var graph = TestGraph()
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

/// A match result on `link` at `offset` metres from its entry.
func onRoad(_ link: DirectedLink, _ offset: Double, time: Double, discontinuity: Bool = false) -> MatchResult {
    MatchResult(time: time, state: .onRoad(MatchedPosition(link: link, offset: offset,
                                                           point: TestGraph.origin, confidence: 1)),
                discontinuity: discontinuity)
}

/// Shorthand for a forward directed link.
func fwd(_ id: UInt64) -> DirectedLink { DirectedLink(LinkID(id), .forward) }
/// Shorthand for a backward directed link.
func bwd(_ id: UInt64) -> DirectedLink { DirectedLink(LinkID(id), .backward) }

@Suite struct PathTreeFixtureTests {
    @Test func fourWayGeometryHasTheExpectedLengthsAndBearings() throws {
        let network = TestGraph.fourWay().network()
        let incoming = try network.link(LinkID(1))
        #expect(abs(incoming.length - 100) < 0.5)
        #expect(abs(incoming.exitBearing(.forward) - 90) < 0.5)
        #expect(abs(try network.link(LinkID(3)).entryBearing(.forward) - 0) < 0.5)
        #expect(abs(incoming.exitBearing(.backward) - 270) < 0.5)
        #expect(signedTurnAngle(from: 350, to: 10) == 20)
        #expect(signedTurnAngle(from: 10, to: 350) == -20)
        #expect(signedTurnAngle(from: 90, to: 270) == 180)
    }
}

extension TestGraph {
    /// A comb: the main street "Main" (secondary) runs east, links 1…`count` of 100 m (link i from
    /// node i−1 to node i). At every inner node i a residential side street leaves north: link
    /// 100+i (150 m, to node 100+i), then straight on link 200+i (1000 m north) or right onto link
    /// 300+i (1000 m east); both end in dead ends.
    static func comb(count: Int = 40) -> TestGraph {
        var graph = TestGraph()
        graph.node(0, 0, 0)
        for i in 1...count {
            let x = Double(i) * 100
            graph.node(Int64(i), x, 0)
            graph.road(UInt64(i), Int64(i - 1), Int64(i), highway: .secondary, name: "Main")
            guard i < count else { continue }
            graph.node(Int64(100 + i), x, 150)
            graph.node(Int64(200 + i), x, 1150)
            graph.node(Int64(300 + i), x + 1000, 150)
            graph.road(UInt64(100 + i), Int64(i), Int64(100 + i))
            graph.road(UInt64(200 + i), Int64(100 + i), Int64(200 + i))
            graph.road(UInt64(300 + i), Int64(100 + i), Int64(300 + i))
        }
        return graph
    }
}

extension PathTree {
    /// The side path branching off `parent` at `offset`, if any.
    func child(of parent: PathID, at offset: Double) -> HorizonPath? {
        children(of: parent).first { abs(($0.branchOffset ?? -1) - offset) < 0.5 }
    }
}
