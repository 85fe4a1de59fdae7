import RoadMap

/// Where an offered U-turn side path goes after turning round (``HorizonEngine``).
///
/// A U-turn offered on request (``BranchProbabilityModel/offersUTurns``) used to go on by the most
/// probable continuation from its junction, as any side path does. A driver who turns round
/// usually goes back the way they came: after a wrong turn, back to the road they left. So the
/// path follows its *way back*, the links its parent paths came along to its junction, reversed,
/// while each one is legal. Where the way back meets a one-way link it may not drive against, it
/// rejoins that road (the one the vehicle came along) in its own direction: the continuation of
/// that link, other than the one the vehicle turned onto, that the branch model ranks first.
/// From there on, and when the way back runs out, the path follows the most probable continuation.
/// Measured on esplanadi, which turns into a side street, turns round and rejoins Lönnrotinkatu
/// (`Docs/horizon-model.md`, "U-turns on request").
extension HorizonEngine {
    /// One link of a way back: the link driven back, and its length.
    typealias WayBackStep = (link: DirectedLink, length: Double)

    /// The way back from the end of link `linkIndex` of path `id`: that link and those before it
    /// on the path, then on its parent before the junction it branches off, and so on up to the
    /// main path's links behind the vehicle and ``drivenBefore``, each reversed, last driven first,
    /// until they add up to `length` metres or nothing more is known.
    func wayBack(from id: PathID, throughLinkIndex linkIndex: Int, length: Double) -> [WayBackStep] {
        var result: [WayBackStep] = []
        var covered = 0.0
        var pathID: PathID? = id
        var lastIndex = linkIndex
        while let current = pathID, let path = tree.paths[current] {
            for index in stride(from: min(lastIndex, path.links.count - 1), through: 0, by: -1) {
                result.append((path.links[index].link.reversed, path.links[index].length))
                covered += path.links[index].length
                if covered >= length { return result }
            }
            guard let parent = path.parent else {
                // The main path: before its first link, the road the vehicle left at its last turn.
                return result + Self.prefix(of: drivenBefore, reaching: length - covered)
            }
            guard let offset = path.branchOffset, let index = linkEnding(at: offset, on: parent) else { break }
            lastIndex = index
            pathID = parent
        }
        return result
    }

    /// ``drivenBefore`` for side path `id` about to become the main path: the way back from its
    /// junction; empty for an offered U-turn (its way back would turn round again).
    func wayBackBefore(_ id: PathID) -> [WayBackStep] {
        guard let path = tree.paths[id], !path.isOfferedUTurn, let parent = path.parent,
            let offset = path.branchOffset, let index = linkEnding(at: offset, on: parent)
        else { return [] }
        return wayBack(from: parent, throughLinkIndex: index, length: configuration.growthReach(level: 1))
    }

    /// Puts the main path's links trimmed behind the vehicle (`dropped`, in driving order) in front
    /// of ``drivenBefore``, so that the way back stays unbroken, and keeps what lies within the
    /// look-ahead of level 1.
    func prependDrivenBefore(_ dropped: [PathLink]) {
        let steps = dropped.reversed().map { WayBackStep($0.link.reversed, $0.length) } + drivenBefore
        drivenBefore = Self.prefix(of: steps, reaching: configuration.growthReach(level: 1))
    }

    /// The first steps of `steps` up to the one that brings them to `length` metres (all of them
    /// when they add up to less).
    private static func prefix(of steps: [WayBackStep], reaching length: Double) -> [WayBackStep] {
        var covered = 0.0
        for (index, step) in steps.enumerated() {
            covered += step.length
            if covered >= length { return Array(steps[...index]) }
        }
        return steps
    }

    /// The index of the link of path `id` that ends at `offset` (a junction on it), `nil` when the
    /// path is missing or holds no link there.
    private func linkEnding(at offset: Double, on id: PathID) -> Int? {
        guard let path = tree.paths[id], let index = path.linkIndex(at: offset) else { return nil }
        // A link covers its end only when it is the path's last.
        let ending = path.links[index].endOffset <= offset ? index : index - 1
        return ending >= 0 ? ending : nil
    }

    /// The link an offered U-turn path goes on with after `last`, its link number `index - 1`
    /// (counted from the U-turn), by its way back `wayBack` (whose first link is the U-turn's):
    /// the way back's next link while the path is still on it and that link is legal; where it is
    /// not (one-way), the road the vehicle came along in its own direction; `nil` when the path has
    /// left the way back or the way back ends.
    func wayBackContinuation(after last: PathLink, index: Int, wayBack: [DirectedLink]) throws -> DirectedLink? {
        guard index > 0, index < wayBack.count, last.link == wayBack[index - 1] else { return nil }
        let back = wayBack[index]
        let legal = try network.successors(of: last.link)
        if legal.contains(back) { return back }
        // One-way against the way back: the link the vehicle came along (back reversed) went on,
        // at this node, onto the one it then drove (the way back's previous link, reversed).
        let came = back.reversed
        let turnedOnto = wayBack[index - 1].reversed
        // Scored as a link placed on a path is (the engine's cul-de-sac cache shared).
        return try configuration.branchModel.branches(
            after: came, road: network.link(came.link), in: network, waysOn: waysOn
        ).first { !$0.isUTurn && $0.link != turnedOnto && legal.contains($0.link) }?.link
    }
}
