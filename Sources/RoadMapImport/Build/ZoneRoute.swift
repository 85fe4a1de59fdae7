import RoadMap

/// The links a zone covers between two points of the road graph (an average-speed zone from its
/// `from` to its `to` member): the shortest legal drive, as pieces of links.
struct ZoneRoute {
    /// A point on a link: its index in the link list and metres from its first geometry point.
    struct Place: Hashable {
        var link: Int
        var offset: Double
    }

    /// The part of one link the zone covers, in forward offsets, driven in `direction`.
    struct Piece: Hashable {
        var link: Int
        var direction: LinkDirection
        var start: Double
        var end: Double
    }

    let links: [RoadLink]
    /// Directed links leaving each node (one-way rules applied).
    private let leaving: [NodeID: [(index: Int, direction: LinkDirection)]]

    init(links: [RoadLink]) {
        self.links = links
        var leaving: [NodeID: [(index: Int, direction: LinkDirection)]] = [:]
        for (index, link) in links.enumerated() {
            for direction in [LinkDirection.forward, .backward] where link.oneway.allows(direction) {
                leaving[link.entryNode(direction), default: []].append((index, direction))
            }
        }
        self.leaving = leaving
    }

    /// The pieces of the shortest legal drive from `from` to `to`, in driving order; `nil` when
    /// there is none within `maximumLength` metres.
    func pieces(from: Place, to: Place, maximumLength: Double) -> [Piece]? {
        let start = links[from.link]
        // On one link: the direction from `from` towards `to`, if allowed.
        if from.link == to.link {
            let direction: LinkDirection = to.offset >= from.offset ? .forward : .backward
            if start.oneway.allows(direction) {
                return [
                    Piece(
                        link: from.link, direction: direction, start: min(from.offset, to.offset),
                        end: max(from.offset, to.offset))
                ]
            }
        }
        // Dijkstra over directed links; the key is the distance to the link's exit.
        var queue = DirectedLinkQueue()
        var best: [DirectedLink: Double] = [:]
        var previous: [DirectedLink: DirectedLink] = [:]
        func key(_ index: Int, _ direction: LinkDirection) -> DirectedLink {
            DirectedLink(LinkID(UInt64(index)), direction)
        }
        for direction in [LinkDirection.forward, .backward] where start.oneway.allows(direction) {
            let cost = direction == .forward ? start.length - from.offset : from.offset
            best[key(from.link, direction)] = cost
            queue.push(cost, key(from.link, direction))
        }
        var arrival: (link: DirectedLink, from: DirectedLink, cost: Double)?
        while let (cost, current) = queue.pop() {
            guard cost == best[current], cost <= maximumLength else { continue }
            if let found = arrival, found.cost <= cost { break }
            let link = links[Int(current.link.rawValue)]
            for next in leaving[link.exitNode(current.direction)] ?? [] {
                let road = links[next.index]
                let nextKey = key(next.index, next.direction)
                if next.index == to.link {
                    let into = next.direction == .forward ? to.offset : road.length - to.offset
                    if cost + into < (arrival?.cost ?? .infinity) { arrival = (nextKey, current, cost + into) }
                }
                let total = cost + road.length
                if total < best[nextKey] ?? .infinity, next.index != from.link {
                    best[nextKey] = total
                    previous[nextKey] = current
                    queue.push(total, nextKey)
                }
            }
        }
        guard let arrival, arrival.cost <= maximumLength else { return nil }
        var chain = [arrival.link, arrival.from]
        while let before = previous[chain.last!], chain.count <= links.count + 1 { chain.append(before) }
        guard Int(chain.last!.link.rawValue) == from.link else { return nil }
        return chain.reversed().enumerated().map { position, step in
            let index = Int(step.link.rawValue)
            let length = links[index].length
            var lower = 0.0, upper = length
            if position == 0 {
                if step.direction == .forward { lower = from.offset } else { upper = from.offset }
            }
            if position == chain.count - 1 {
                if step.direction == .forward { upper = to.offset } else { lower = to.offset }
            }
            return Piece(link: index, direction: step.direction, start: lower, end: upper)
        }
    }
}
