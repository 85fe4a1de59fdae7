/// Every legal turn of a road graph: for each directed link, the directed links a vehicle may
/// enter after driving it to its end, as ``RoadNetwork/successors(of:)`` answers it (oneway and
/// turn restrictions respected, the U-turn included when legal), sorted.
///
/// A map stores them with each link (``RoadMapStore``'s tiles), so a successor query on the
/// vehicle reads one list instead of the junction's links one by one; ``LongestWaysOn`` walks
/// them. Directed link `d` of `links[i]` is vertex `2 i` (forward) or `2 i + 1` (backward); the
/// links must be sorted by identifier.
public struct RoadTurns: Sendable {
    /// The links' identifiers, in the graph's order.
    let ids: [LinkID]
    /// Length of each vertex's link, metres.
    let lengths: [Double]
    /// Whether oneway lets a vehicle drive each vertex.
    let drivable: [Bool]
    /// Successors of vertex `v`: `targets[offsets[v] ..< offsets[v + 1]]`, ascending.
    let offsets: [Int32]
    let targets: [Int32]

    /// The turns among `links` (sorted by identifier) under `restrictions`.
    public init(links: [RoadLink], restrictions: [TurnRestriction]) {
        let count = links.count
        ids = links.map(\.id)
        var lengths: [Double] = [], drivable: [Bool] = []
        lengths.reserveCapacity(2 * count)
        drivable.reserveCapacity(2 * count)
        // Every (node, vertex) a vehicle may leave the node by, sorted by node, then vertex.
        var leaving: [(node: NodeID, vertex: Int32)] = []
        leaving.reserveCapacity(2 * count)
        for (index, link) in links.enumerated() {
            let forward = link.oneway.allows(.forward), backward = link.oneway.allows(.backward)
            lengths += [link.length, link.length]
            drivable += [forward, backward]
            if forward { leaving.append((link.startNode, Int32(2 * index))) }
            if backward { leaving.append((link.endNode, Int32(2 * index + 1))) }
        }
        self.lengths = lengths
        self.drivable = drivable
        leaving.sort { ($0.node, $0.vertex) < ($1.node, $1.vertex) }
        var restrictionsFrom: [LinkID: [TurnRestriction]] = [:]
        for restriction in restrictions { restrictionsFrom[restriction.from, default: []].append(restriction) }

        var offsets: [Int32] = [0]
        offsets.reserveCapacity(2 * count + 1)
        var targets: [Int32] = []
        targets.reserveCapacity(leaving.count * 3)
        for link in links {
            for direction in [LinkDirection.forward, .backward] {
                let node = link.exitNode(direction)
                let here = restrictionsFrom[link.id]?.filter { $0.via == node } ?? []
                var position = Self.firstIndex(of: node, in: leaving)
                while position < leaving.count, leaving[position].node == node {
                    let next = leaving[position].vertex
                    position += 1
                    guard here.isEmpty || TurnRestriction.permit(here, turnInto: links[Int(next) / 2].id) else {
                        continue
                    }
                    targets.append(next)
                }
                offsets.append(Int32(targets.count))
            }
        }
        self.offsets = offsets
        self.targets = targets
    }

    /// The first position of `node` in `leaving` (sorted by node), or where it would be.
    private static func firstIndex(of node: NodeID, in leaving: [(node: NodeID, vertex: Int32)]) -> Int {
        var low = 0, high = leaving.count
        while low < high {
            let middle = (low + high) / 2
            if leaving[middle].node < node { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The number of vertices (twice the links).
    var vertexCount: Int { lengths.count }

    /// The directed link of vertex `vertex`.
    func directedLink(_ vertex: Int) -> DirectedLink {
        DirectedLink(ids[vertex / 2], vertex % 2 == 0 ? .forward : .backward)
    }

    /// The legal successors of `links[index]` driven in `direction`, ascending, the U-turn
    /// included when legal.
    public func successors(ofLinkAt index: Int, _ direction: LinkDirection) -> [DirectedLink] {
        let vertex = 2 * index + (direction == .forward ? 0 : 1)
        return targets[Int(offsets[vertex])..<Int(offsets[vertex + 1])].map { directedLink(Int($0)) }
    }
}
