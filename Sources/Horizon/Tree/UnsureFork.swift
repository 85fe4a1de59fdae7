/// When the matcher leaves the main path at a narrow fork while still unsure of it, the vehicle
/// stays on the main path.
///
/// Just past a fork whose two ways part by a few degrees, a 5 m fix lies about as near to one as
/// to the other, and the matcher's best state can flip between them from fix to fix. Taking each
/// flip as a turn onto the side path would throw the main path's far end away and build it again
/// (and send it again) at the flip back. So while the vehicle is within ``distance`` of the fork
/// and the matcher still gives the main path's way at least ``ratio`` of the chosen side path's
/// probability, the vehicle is placed on the main path at that state; the side path stays in the
/// tree as a sibling beside it, and the provider reports the matched position there as a second
/// POSITION. Past ``distance``, or once the matcher is sure, the side path becomes the main path
/// as before.
public struct UnsureFork: Hashable, Sendable {
    /// How far past the fork, metres along the side path, the vehicle may be held. Default 25.
    public var distance: Double
    /// The widest fork held, degrees between the main path's and the side path's turn there.
    /// Default 30 (the provider's tolerance for parallel roads).
    public var angle: Double
    /// The least probability of the main path's state relative to the matched one's for the
    /// vehicle to be held, `0...1`. Default 0.3.
    public var ratio: Double

    /// Creates the rule; the defaults are those measured on the drives (`Docs/horizon-model.md`).
    public init(distance: Double = 25, angle: Double = 30, ratio: Double = 0.3) {
        self.distance = distance
        self.angle = angle
        self.ratio = ratio
    }

    /// Checks that every number is usable.
    ///
    /// - Throws: ``HorizonError/invalidConfiguration(_:)`` naming the bad setting.
    func validate() throws {
        if !distance.isFinite || distance < 0 {
            throw HorizonError.invalidConfiguration(
                "unsureFork.distance must be a finite number ≥ 0 m, got \(distance)")
        }
        if !(0...180).contains(angle) {
            throw HorizonError.invalidConfiguration("unsureFork.angle must be 0…180°, got \(angle)")
        }
        if !(0...1).contains(ratio) {
            throw HorizonError.invalidConfiguration("unsureFork.ratio must be a probability ratio in 0…1, got \(ratio)")
        }
    }
}

extension HorizonEngine {
    /// Where on `main` the vehicle is held instead of turning onto side path `sideID`, which holds
    /// the matched `position` (``UnsureFork``): the main path's link index and the candidate placed
    /// there; `nil` to turn. `candidates` gives the matcher's states of the fix, asked for only at
    /// a narrow fork just behind the vehicle.
    func heldAtFork(
        _ position: MatchedPosition, sidePath sideID: PathID, on main: HorizonPath,
        candidates: () -> [MatchedPosition]
    ) -> (linkIndex: Int, position: MatchedPosition)? {
        guard let rule = configuration.unsureFork, let vehicleOffset, let side = tree.paths[sideID],
            side.parent == main.id, let fork = side.branchOffset, let sideTurn = side.turnAngle,
            fork + rule.distance >= vehicleOffset,
            let onSide = side.links.first(where: { $0.link == position.link }),
            onSide.startOffset + position.offset <= rule.distance,
            // The main path's way on from the fork, and its turn there.
            let next = main.links.firstIndex(where: { $0.startOffset >= fork - 0.01 }), next > 0,
            let mainBranch = main.links[next - 1].exitBranches.first(where: { $0.link == main.links[next].link }),
            abs(mainBranch.turnAngle - sideTurn) <= rule.angle
        else { return nil }
        // As a placement on the main path: from the vehicle's link on, never back to an earlier one.
        let first = max(next, vehicleLinkIndex)
        guard first < main.links.count else { return nil }
        var best: (linkIndex: Int, position: MatchedPosition)?
        for candidate in candidates() where candidate.confidence >= rule.ratio * position.confidence {
            guard candidate.confidence > best?.position.confidence ?? -1,
                let index = main.links[first...].firstIndex(where: { $0.link == candidate.link }),
                main.links[index].startOffset + candidate.offset - fork <= rule.distance
            else { continue }
            best = (index, candidate)
        }
        return best
    }
}

extension HorizonEngine {
    /// `match` with the vehicle where the last ``update(_:candidates:)`` placed it
    /// (``vehiclePosition``): on the main path while the matcher is unsure at a narrow fork, else
    /// unchanged. What a provider reports as the POSITION.
    public func placed(_ match: MatchResult) -> MatchResult {
        guard let position = vehiclePosition, case .onRoad(let matched) = match.state, position != matched else {
            return match
        }
        var placed = match
        placed.state = .onRoad(position)
        return placed
    }
}
