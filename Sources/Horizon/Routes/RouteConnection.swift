import RoadMap

extension RoutePlanning {
    /// Metres a route taken from a recorded drive may run longer to keep a link the drive was
    /// matched to, beyond the metres seen driven on it, before the link is left out as a wrong match.
    public static let leftOutLinkCost = 10.0

    /// Closes the gaps between consecutive links of a route listed by hand, as the form taking
    /// ``ListedLink``s does.
    public static func connect(
        _ links: [DirectedLink], in network: any RoadNetwork, maximumGap: Int = 8,
        skippingUnreachable: Bool = false
    ) throws -> (route: [DirectedLink], skipped: Int) {
        try connect(
            links.map { ListedLink($0) }, in: network, maximumGap: maximumGap, skippingUnreachable: skippingUnreachable)
    }

    /// Closes the gaps between consecutive links with the shortest legal connection (at most
    /// `maximumGap` links, breadth first over ``RoadNetwork/successors(of:)``), so a route taken
    /// from a matched drive, which may skip short links between fixes, becomes drivable.
    ///
    /// With `skippingUnreachable`, a link may be left out as a wrong match of a recorded drive: one
    /// that cannot be reached from the route so far, or one whose connection onwards runs longer
    /// than leaving it out would by more than the metres the drive was seen on it (from its start
    /// to its last fix) plus ``leftOutLinkCost``. A fix matched at a junction node to the road
    /// straight on although the vehicle turned there would otherwise make the route drive that road
    /// to its end and back. The connection onwards is tried from each of the last five links kept,
    /// the cheapest taken: the rest of the link it starts from past its last fix, the links between,
    /// and for each link left out its metres seen plus ``leftOutLinkCost``. A link listed by hand (no
    /// stretch seen) is left out only when it cannot be reached. A route of fewer than three links
    /// that cannot go on is restarted at the unreachable link; `skipped` counts the links left out.
    public static func connect(
        _ links: [ListedLink], in network: any RoadNetwork, maximumGap: Int = 8,
        skippingUnreachable: Bool = false
    ) throws -> (route: [DirectedLink], skipped: Int) {
        guard let first = links.first else { throw RouteError(message: "the route has no links") }
        var route = [first.link]
        // The listed links kept, each with its index in `route`.
        var kept = [(listed: first, index: 0)]
        var skipped = 0
        for target in links.dropFirst() where route[route.count - 1] != target.link {
            var best: (back: Int, bridge: [DirectedLink], cost: Double)?
            for back in 0..<(skippingUnreachable ? min(5, kept.count) : 1) {
                let from = kept[kept.count - 1 - back].listed
                guard
                    let bridge = try shortestConnection(
                        from: from.link, to: target.link, in: network, maximumLinks: maximumGap)
                else { continue }
                var cost = try remainder(of: from, in: network)
                for link in bridge.dropLast() { cost += try network.link(link.link).length }
                for dropped in kept.suffix(back) {
                    cost += dropped.listed.seen.map { $0.upperBound + leftOutLinkCost } ?? .infinity
                }
                if best.map({ cost < $0.cost }) ?? true { best = (back, bridge, cost) }
            }
            if let best {
                kept.removeLast(best.back)
                skipped += best.back
                route.removeSubrange((kept[kept.count - 1].index + 1)...)
                route += best.bridge
                kept.append((target, route.count - 1))
                continue
            }
            guard skippingUnreachable else {
                throw RouteError(
                    message:
                        "no legal connection of at most \(maximumGap) links from \(route[route.count - 1]) to \(target.link)"
                )
            }
            // A wrong first match (a drive starting at a junction) would cut off everything after it:
            // restart at the target while the route is still this short.
            guard route.count < 3 else {
                skipped += 1
                continue
            }
            skipped += kept.count
            route = [target.link]
            kept = [(target, 0)]
        }
        return (route, skipped)
    }

    /// Metres of `listed` past the last fix seen on it (none for a link listed by hand).
    private static func remainder(of listed: ListedLink, in network: any RoadNetwork) throws -> Double {
        guard let seen = listed.seen else { return 0 }
        return max(0, try network.link(listed.link.link).length - seen.upperBound)
    }

    /// The links after `from` up to and including `to`, fewest links first (of as many, the search
    /// follows the ones going on before the ones turning round); `nil` when none.
    private static func shortestConnection(
        from: DirectedLink, to: DirectedLink, in network: any RoadNetwork,
        maximumLinks: Int
    ) throws -> [DirectedLink]? {
        var previous: [DirectedLink: DirectedLink] = [:]
        var frontier = [from]
        for _ in 0..<maximumLinks {
            var next: [DirectedLink] = []
            for link in frontier {
                // Turning round last, so of connections as short the one going on is found.
                let successors = try network.successors(of: link)
                let turningRoundLast =
                    successors.filter { $0.link != link.link } + successors.filter { $0.link == link.link }
                for successor in turningRoundLast where previous[successor] == nil && successor != from {
                    previous[successor] = link
                    if successor == to {
                        var path = [to]
                        var step = link
                        while step != from {
                            path.append(step)
                            // Every link reached has its predecessor recorded, back to `from`.
                            step = previous[step]!
                        }
                        return path.reversed()
                    }
                    next.append(successor)
                }
            }
            frontier = next
        }
        return nil
    }
}
