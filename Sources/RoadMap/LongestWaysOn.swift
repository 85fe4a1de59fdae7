/// The longest way on from the start of every directed link of a road graph: how far a vehicle
/// can drive from there, U-turns aside, before every way ends. A cul-de-sac's is short; a link
/// from which some way reaches a loop (a block, a roundabout) leads on for ever.
///
/// This is what the horizon's branch model asks at every junction it weighs (does this
/// continuation end within the cul-de-sac reach?). Worked out once for the whole graph when a map
/// is written, it costs the vehicle a lookup instead of a search, and it is exact: the search from
/// one link stops at the reach, the whole graph is solved with no limit at all.
///
/// The graph is the one ``RoadNetwork/successors(of:)`` walks (``RoadTurns``), U-turns left out.
/// Its strongly connected components are found depth first (Tarjan), and they come out with every
/// component they reach before them, so one pass finds each link's length: its own length plus the
/// longest of its successors', infinite when its component is a loop or a successor's is infinite.
/// Linear in the links and the turns.
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
        lengths(of: RoadTurns(links: links, restrictions: restrictions), limit: limit)
    }

    /// ``lengths(links:restrictions:limit:)`` for turns worked out already.
    public static func lengths(of turns: RoadTurns, limit: Double = storedLimit) -> [DirectedLink: Double] {
        var result: [DirectedLink: Double] = [:]
        for (vertex, length) in longestWaysOn(turns).enumerated() where length <= limit && turns.drivable[vertex] {
            result[turns.directedLink(vertex)] = length
        }
        return result
    }

    /// The longest way on from each vertex of `turns`: Tarjan's components, depth first without
    /// recursion, each vertex's length set when its component is complete (every component it
    /// reaches is complete by then). U-turns (vertex `v` to `v ^ 1`) are no turns here. A
    /// direction oneway forbids has no way in, but its own successors, and so a length: no one
    /// asks for it.
    static func longestWaysOn(_ turns: RoadTurns) -> [Double] {
        let count = turns.vertexCount
        let offsets = turns.offsets, targets = turns.targets
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
                    guard w != v ^ 1 else { continue }  // the U-turn
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
                var members = 0
                while let top = stack.popLast() {
                    onStack[Int(top)] = false
                    members += 1
                    if Int(top) == v { break }
                }
                let edges = Int(offsets[v])..<Int(offsets[v + 1])
                guard members == 1, !targets[edges].contains(Int32(v)) else { continue }  // a loop: infinite
                var longest = 0.0
                for edge in edges where Int(targets[edge]) != v ^ 1 {
                    longest = max(longest, result[Int(targets[edge])])
                }
                result[v] = turns.lengths[v] + longest
            }
        }
        return result
    }
}
