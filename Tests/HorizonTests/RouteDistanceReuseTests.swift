import RoadMap
import Testing
@testable import Horizon
import TestSupport

/// One route search serves a whole drive and keeps, per link, what it reached from that link's
/// exit. Whatever it kept, every answer must be the shortest legal distance within the limit asked.
@Suite struct RouteDistanceReuseTests {
    /// A 5 × 5 grid of junctions 100 m apart (node `5 i + j` at 100 j east, 100 i north), every
    /// street one link; about one link in four one-way, in a direction drawn from `seed`.
    private func grid(seed: UInt64) -> PlaneRoadGraph {
        var random = SplitMix64(seed: seed)
        var graph = PlaneRoadGraph()
        for i in 0..<5 {
            for j in 0..<5 { graph.node(Int64(5 * i + j), Double(100 * j), Double(100 * i)) }
        }
        func oneway() -> Oneway { [.no, .no, .no, .forward, .backward][random.below(5)] }
        var id: UInt64 = 1
        for i in 0..<5 {
            for j in 0..<5 {
                let node = Int64(5 * i + j)
                if j < 4 {
                    graph.road(id, node, node + 1, oneway: oneway())
                    id += 1
                }
                if i < 4 {
                    graph.road(id, node, node + 5, oneway: oneway())
                    id += 1
                }
            }
        }
        return graph
    }

    private func candidate(_ link: DirectedLink, _ offset: Double, in network: InMemoryRoadNetwork) throws
        -> MatchCandidate
    {
        MatchCandidate(
            link: link, offset: offset, measuredOffset: offset, length: try network.link(link.link).length,
            point: PlaneRoadGraph.origin, distance: 0, bearing: 0, emission: 0)
    }

    /// The distances the search must give, worked out without it: Dijkstra over directed links
    /// straight from the network, U-turns charged `uTurnPenalty`.
    private func expected(
        from source: MatchCandidate, to targets: [MatchCandidate], limit: Double, backwardTolerance: Double,
        uTurnPenalty: Double, in network: InMemoryRoadNetwork
    ) throws -> [Double] {
        var entry: [DirectedLink: Double] = [:]
        var open: [(Double, DirectedLink)] = []
        let toExit = max(0, source.length - source.offset)
        for next in try network.successors(of: source.link) {
            open.append((toExit + (next == source.link.reversed ? uTurnPenalty : 0), next))
        }
        while let best = open.indices.min(by: { open[$0].0 < open[$1].0 }) {
            let (distance, link) = open.remove(at: best)
            if distance > limit || entry[link] != nil { continue }
            entry[link] = distance
            let exit = distance + (try network.link(link.link).length)
            for next in try network.successors(of: link) where entry[next] == nil {
                open.append((exit + (next == link.reversed ? uTurnPenalty : 0), next))
            }
        }
        return targets.map { target in
            let along = target.offset - source.offset
            if target.link == source.link, along >= -backwardTolerance { return abs(along) }
            guard let start = entry[target.link], start + target.offset <= limit else { return .infinity }
            return start + target.offset
        }
    }

    @Test func aSearchKeptForALinkAnswersLikeAFreshOne() throws {
        for seed in UInt64(1)...4 {
            let graph = grid(seed: seed), network = graph.network
            let directed = graph.links.flatMap { link in
                [LinkDirection.forward, .backward].filter { link.oneway.allows($0) }
                    .map { DirectedLink(link.id, $0) }
            }
            var random = SplitMix64(seed: seed &* 7919)
            var search = RouteDistanceSearch()
            var source = directed[0]
            var result: [Double] = []
            // Like the previous fix's candidates: mostly the same link as the query before, further
            // along it; limits from a slow crawl to a long gap between fixes.
            for query in 0..<400 {
                if random.below(10) < 4 { source = directed[random.below(directed.count)] }
                let from = try candidate(source, Double(random.below(101)), in: network)
                let targets = try (0..<6).map { _ in
                    try candidate(directed[random.below(directed.count)], Double(random.below(101)), in: network)
                }
                let limit = Double(40 + random.below(500))
                try search.distances(from: from, to: targets, limit: limit, in: network, into: &result)
                let truth = try expected(
                    from: from, to: targets, limit: limit, backwardTolerance: search.backwardTolerance,
                    uTurnPenalty: search.uTurnPenalty, in: network)
                for (got, want) in zip(result, truth) {
                    #expect(
                        got == want || abs(got - want) < 1e-6,
                        "seed \(seed), query \(query): from \(source) at \(from.offset) m, limit \(limit) m: \(got) against \(want)"
                    )
                }
            }
        }
    }

    @Test func aLongerLimitSearchesFurtherThanTheReachKept() throws {
        // From the grid's corner (link 1, node 0 → 1, 10 m before its exit) to the first link
        // that lies beyond 300 m by road.
        let graph = grid(seed: 0), network = graph.network
        var search = RouteDistanceSearch()
        let source = try candidate(DirectedLink(LinkID(1), .forward), 90, in: network)
        var far: (target: MatchCandidate, distance: Double)?
        for link in graph.links.map(\.id) where far == nil {
            let target = try candidate(DirectedLink(link, .forward), 50, in: network)
            let distance = try expected(
                from: source, to: [target], limit: 2000, backwardTolerance: search.backwardTolerance,
                uTurnPenalty: search.uTurnPenalty, in: network)[0]
            if distance > 300, distance.isFinite { far = (target, distance) }
        }
        let (target, distance) = try #require(far)
        var result: [Double] = []
        try search.distances(from: source, to: [target], limit: 150, in: network, into: &result)
        #expect(result == [.infinity])
        try search.distances(from: source, to: [target], limit: 2000, in: network, into: &result)
        #expect(abs(result[0] - distance) < 1e-6)
    }

    @Test func aChangedNetworkIsSearchedAfresh() throws {
        // Three streets in a row, 0 → 1 → 2 → 3, 100 m each; then the middle one is rebuilt round a
        // bend (a map reload), 100 m longer.
        func street(bent: Bool) -> InMemoryRoadNetwork {
            var graph = PlaneRoadGraph()
            for node in 0..<4 { graph.node(Int64(node), Double(100 * node), 0) }
            graph.road(1, 0, 1)
            graph.road(2, 1, 2, via: bent ? [(150, 86.6)] : [])
            graph.road(3, 2, 3)
            return graph.network
        }
        let straight = street(bent: false), bent = street(bent: true)
        var search = RouteDistanceSearch()
        var result: [Double] = []
        let source = try candidate(DirectedLink(LinkID(1), .forward), 60, in: straight)
        let target = try candidate(DirectedLink(LinkID(3), .forward), 30, in: straight)
        try search.distances(from: source, to: [target], limit: 400, in: straight, into: &result)
        #expect(abs(result[0] - 170) < 1e-6)
        search.removeAll()
        try search.distances(from: source, to: [target], limit: 400, in: bent, into: &result)
        let detour = try bent.link(LinkID(2)).length
        #expect(detour > 190)
        #expect(abs(result[0] - (40 + detour + 30)) < 1e-6)
    }
}
