/// The longest way on from the start of every directed link of a road graph: how far a vehicle
/// can drive from there, U-turns aside, before every way ends. A cul-de-sac's is short; a link
/// from which some way reaches a loop (a block, a roundabout) leads on for ever.
///
/// This is what the horizon's branch model asks at every junction it weighs (does this
/// continuation end within the cul-de-sac reach?). Worked out once for the whole graph when a map
/// is written, it costs the vehicle a lookup instead of a search, and it is exact: the search from
/// one link stops at the reach, the whole graph is solved with no limit at all.
///
/// The graph is the one ``RoadNetwork/successors(of:)`` walks: a directed link leads to every
/// directed link leaving its exit node that oneway allows, turn restrictions respected, its own
/// reverse (the U-turn) left out. Its strongly connected components are found depth first
/// (Tarjan), and they come out with every component they reach before them, so one pass finds
/// each link's length: its own length plus the longest of its successors', infinite when its
/// component is a loop or a successor's is infinite. Linear in the links and the turns.
public enum LongestWaysOn {
    /// What a map stores: the longest ways on that are at most this long, metres. Longer ones
    /// and loops lead on (``RoadNetwork/longestWayOn(_:)`` says `.infinity`).
    public static let storedLimit: Double = 1000

    /// The directed links of `links` whose longest way on is at most `limit` metres, with that
    /// length; every other directed link leads on past `limit` or into a loop. `restrictions`
    /// are the graph's turn restrictions. Directions that oneway forbids are left out.
    public static func lengths(
        links: [RoadLink], restrictions: [TurnRestriction], limit: Double = storedLimit
    ) -> [DirectedLink: Double] {
        let graph = TurnGraph(links: links, restrictions: restrictions)
        let lengths = graph.longestWaysOn()
        var result: [DirectedLink: Double] = [:]
        for (vertex, length) in lengths.enumerated() where length <= limit {
            let link = links[vertex / 2]
            let direction: LinkDirection = vertex % 2 == 0 ? .forward : .backward
            guard link.oneway.allows(direction) else { continue }
            result[DirectedLink(link.id, direction)] = length
        }
        return result
    }
}

/// Directed links as vertices `2 i` (forward) and `2 i + 1` (backward) of link `i`, and the turns
/// between them, in compressed rows.
private struct TurnGraph {
    /// Length of each vertex's link, metres.
    var lengths: [Double]
    /// Successors of vertex `v`: `targets[offsets[v] ..< offsets[v + 1]]`.
    var offsets: [Int32]
    var targets: [Int32]

    init(links: [RoadLink], restrictions: [TurnRestriction]) {
        let count = links.count
        lengths = []
        lengths.reserveCapacity(2 * count)
        for link in links { lengths.append(link.length); lengths.append(link.length) }
        // Every (node, vertex) a vehicle may leave the node by, sorted by node.
        var leaving: [(node: NodeID, vertex: Int32)] = []
        leaving.reserveCapacity(2 * count)
        for (index, link) in links.enumerated() {
            if link.oneway.allows(.forward) { leaving.append((link.startNode, Int32(2 * index))) }
            if link.oneway.allows(.backward) { leaving.append((link.endNode, Int32(2 * index + 1))) }
        }
        leaving.sort { ($0.node, $0.vertex) < ($1.node, $1.vertex) }
        var restrictionsFrom: [LinkID: [TurnRestriction]] = [:]
        for restriction in restrictions { restrictionsFrom[restriction.from, default: []].append(restriction) }

        offsets = [0]
        offsets.reserveCapacity(2 * count + 1)
        targets = []
        targets.reserveCapacity(leaving.count * 2)
        for (index, link) in links.enumerated() {
            for direction in [LinkDirection.forward, .backward] {
                let vertex = 2 * index + (direction == .forward ? 0 : 1)
                let node = link.exitNode(direction)
                let here = restrictionsFrom[link.id]?.filter { $0.via == node } ?? []
                let mandatory = here.filter { $0.kind == .mandatory }.map(\.to)
                let forbidden = Set(here.filter { $0.kind == .prohibitory }.map(\.to))
                var position = Self.firstIndex(of: node, in: leaving)
                while position < leaving.count, leaving[position].node == node {
                    let next = Int(leaving[position].vertex)
                    position += 1
                    guard next != vertex ^ 1 else { continue }  // the U-turn
                    let nextLink = links[next / 2].id
                    if !mandatory.isEmpty ? !mandatory.contains(nextLink) : forbidden.contains(nextLink) { continue }
                    targets.append(Int32(next))
                }
                offsets.append(Int32(targets.count))
            }
        }
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

    /// The longest way on from each vertex: Tarjan's components, depth first without recursion,
    /// each vertex's length set when its component is complete (every component it reaches is
    /// complete by then).
    func longestWaysOn() -> [Double] {
        let count = lengths.count
        var result = [Double](repeating: .infinity, count: count)
        var order = [Int32](repeating: -1, count: count)  // discovery order, -1 unvisited
        var lowest = [Int32](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int32] = []
        var calls: [(vertex: Int32, next: Int32)] = []
        var counter: Int32 = 0
        for root in 0..<count where order[root] < 0 {
            calls.append((Int32(root), offsets[root]))
            order[root] = counter; lowest[root] = counter; counter += 1
            stack.append(Int32(root)); onStack[root] = true
            while let (vertex, next) = calls.last {
                let v = Int(vertex)
                if next < offsets[v + 1] {
                    calls[calls.count - 1].next += 1
                    let w = Int(targets[Int(next)])
                    if order[w] < 0 {
                        order[w] = counter; lowest[w] = counter; counter += 1
                        stack.append(Int32(w)); onStack[w] = true
                        calls.append((Int32(w), offsets[w]))
                    } else if onStack[w] {
                        lowest[v] = min(lowest[v], order[w])
                    }
                    continue
                }
                calls.removeLast()
                if let (parent, _) = calls.last { lowest[Int(parent)] = min(lowest[Int(parent)], lowest[v]) }
                guard lowest[v] == order[v] else { continue }
                // v roots a component: pop it.
                var members: [Int] = []
                while let top = stack.popLast() {
                    onStack[Int(top)] = false
                    members.append(Int(top))
                    if Int(top) == v { break }
                }
                let loopsBack =
                    members.count > 1 || targets[Int(offsets[v])..<Int(offsets[v + 1])].contains(Int32(v))
                guard !loopsBack else { continue }  // stays infinite
                var longest = 0.0
                for edge in Int(offsets[v])..<Int(offsets[v + 1]) {
                    longest = max(longest, result[Int(targets[edge])])
                }
                result[v] = lengths[v] + longest
            }
        }
        return result
    }
}
