import RoadMap

extension HorizonEngine {
    /// The continuations after `incoming` that the road graph connects and oneway allows but a
    /// turn restriction forbids, as branches with probability 0 (not U-turns), ordered by
    /// directed link: HERE's zero-probability paths, kept on request
    /// (``HorizonConfiguration/keepsZeroProbabilityPaths``) so the client can filter them.
    func forbiddenContinuations(after incoming: DirectedLink) throws -> [JunctionBranch] {
        let road = try network.link(incoming.link)
        let legal = Set(try network.successors(of: incoming))
        let heading = road.exitBearing(incoming.direction)
        var result: [JunctionBranch] = []
        for candidate in try network.outgoing(from: road.exitNode(incoming.direction)).sorted()
        where candidate != incoming.reversed && !legal.contains(candidate) {
            let entry = try network.link(candidate.link).entryBearing(candidate.direction)
            result.append(
                JunctionBranch(
                    link: candidate, probability: 0, turnAngle: signedTurnAngle(from: heading, to: entry),
                    isUTurn: false))
        }
        return result
    }
}
