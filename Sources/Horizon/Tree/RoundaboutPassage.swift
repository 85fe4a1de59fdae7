import RoadMap

extension BranchProbabilityModel {
    /// Most roundabout links passed while looking for an exit: more than any roundabout has.
    static let maximumRoundaboutLinks = 64

    /// Where a path on a roundabout goes after `current` (a roundabout link), given the link it
    /// entered the roundabout from: the exit it most probably takes if that exit leaves from the end
    /// of `current`, else the roundabout link that goes on round. `nil` when `current` is not on a
    /// roundabout or no exit is found.
    ///
    /// A roundabout is one junction split into many: judged node by node, going on round is always
    /// the straightest continuation, so a path would circle instead of leaving. Here every exit of
    /// the roundabout ahead is weighed as a continuation of the entry road
    /// (``weight(from:to:direction:turnAngle:)``), with the turn angle measured from the heading at
    /// the entry to the heading on the exit — the heading change through the whole junction — so
    /// the exit straight across wins, as on a plain crossing; ties go to the earlier exit.
    public func roundaboutContinuation(
        entry: DirectedLink, current: DirectedLink, in network: any RoadNetwork
    ) throws -> DirectedLink? {
        guard try network.link(current.link).formOfWay == .roundabout else { return nil }
        let entryRoad = try network.link(entry.link)
        let heading = entryRoad.exitBearing(entry.direction)
        var best: (weight: Double, step: Int, link: DirectedLink)?
        var goOn: DirectedLink?
        var link = current
        var visited: Set<DirectedLink> = [current]
        for step in 0..<Self.maximumRoundaboutLinks {
            var round: DirectedLink?
            for branch in try branches(after: link, in: network) where !branch.isUTurn {
                let road = try network.link(branch.link.link)
                if road.formOfWay == .roundabout {
                    if round == nil { round = branch.link }
                    continue
                }
                let angle = signedTurnAngle(from: heading, to: road.entryBearing(branch.link.direction))
                let weight = self.weight(
                    from: entryRoad, to: road, direction: branch.link.direction, turnAngle: angle)
                if best.map({ weight > $0.weight }) ?? true { best = (weight, step, branch.link) }
            }
            if step == 0 { goOn = round }
            guard let next = round, visited.insert(next).inserted else { break }
            link = next
        }
        guard let best else { return goOn }
        return best.step == 0 ? best.link : goOn ?? best.link
    }
}
