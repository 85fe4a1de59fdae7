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
            let entered = try network.link(candidate.link)
            result.append(
                JunctionBranch(
                    link: candidate, probability: 0,
                    turnAngle: signedTurnAngle(from: heading, to: entered.entryBearing(candidate.direction)),
                    isUTurn: false, road: BranchRoad(entered, candidate.direction)))
        }
        return result
    }
}

extension JunctionBranch {
    /// Whether this is a U-turn offered on request (probability 0), not the only way on at a dead end.
    var isOfferedUTurn: Bool { isUTurn && probability == 0 }
}

extension HorizonPath {
    /// Whether this side path is a U-turn offered on request (``BranchProbabilityModel/offersUTurns``):
    /// it follows the road back from its junction and is a leaf of the tree, never branched, so
    /// U-turns on every level cost one path per junction instead of a subtree each.
    var isOfferedUTurn: Bool { level > 0 && probability == 0 && turnAngle == 180 }
}
