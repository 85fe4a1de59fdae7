import RoadMap

/// The shortest paths from one candidate, by length, over links whose FRC is at most a limit:
/// a Dijkstra search bounded by a maximum length (the DNP and its tolerance).
struct PathSearch {
    /// Metres from the start candidate to the entry of each reached directed link.
    private(set) var entryDistance: [DirectedLink: Double] = [:]
    private var previous: [DirectedLink: DirectedLink] = [:]
    private let start: Candidate

    /// Searches from `start` up to `maximumLength` metres, expanding only links with an OpenLR
    /// FRC ≤ `lowestClass` (the start link is always left).
    init(network: any RoadNetwork, from start: Candidate, maximumLength: Double, lowestClass: UInt8) throws {
        self.start = start
        var queue = DirectedLinkQueue()
        entryDistance[start.link] = -start.offset
        queue.push(-start.offset, start.link)
        var settled = Set<DirectedLink>()
        while let (key, current) = queue.pop() {
            guard key <= maximumLength else { break }
            guard settled.insert(current).inserted else { continue }
            let link = try network.link(current.link)
            if current != start.link, link.openLRFunctionalRoadClass > lowestClass { continue }
            let exit = key + link.length
            guard exit <= maximumLength else { continue }
            for next in try network.successors(of: current) where next != current.reversed {
                if let known = entryDistance[next], known <= exit { continue }
                entryDistance[next] = exit
                previous[next] = current
                queue.push(exit, next)
            }
        }
    }

    /// The path length to `end` and its directed links, or `nil` when not reached. An end on the
    /// start link ahead of the start is reached along the link itself.
    func path(to end: Candidate) -> (length: Double, links: [DirectedLink])? {
        if end.link == start.link, end.offset >= start.offset {
            return (end.offset - start.offset, [start.link])
        }
        guard end.link != start.link, let entry = entryDistance[end.link] else { return nil }
        var links = [end.link]
        while let before = previous[links[links.count - 1]] { links.append(before) }
        return (entry + end.offset, links.reversed())
    }
}
