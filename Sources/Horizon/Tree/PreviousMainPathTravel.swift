extension HorizonEngine {
    /// Metres the vehicle can have driven along the main path held before the last ``update(_:)``
    /// before it left that path: ``forwardTravel(_:)``; or, when that update took the vehicle onto
    /// one of the path's side paths (a turn, or the other way at a fork where the vehicle was held
    /// on the main path: ``UnsureFork``), exactly through the branch point (``branchPassThrough``
    /// beyond it: a point at the junction was driven over), however far the speeds say the vehicle
    /// drove, or as far as it got when it turned round first; when the branch point lies behind the
    /// vehicle's last place, that much beyond the place. For
    /// ``RoadObjectTracker/update(mainPathObjects:vehicleOffset:travelled:travelledAlongPreviousPath:)``:
    /// a point on the old main path beyond the branch point was not passed, however far the
    /// vehicle drove, and one at the branch point was, though the matched position reached the
    /// side path a little sooner than the speeds say the vehicle could have.
    public func travelAlongPreviousMainPath(_ travelled: Double) -> Double {
        let turnedRoundAt = turnRoundReach(travelled)
        guard let branchProgress else { return turnedRoundAt ?? travelled }
        let throughBranch = max(0, branchProgress) + Self.branchPassThrough
        return turnedRoundAt.map { min($0, throughBranch) } ?? throughBranch
    }

    /// How far past a branch point the vehicle that turned there is taken to have driven along the
    /// path it left, metres: a point object at the junction's node counts as passed
    /// (``RoadObjectTracker/passMargin`` is 1 m), one a few metres down the other road does not.
    static let branchPassThrough = 2.0

    /// How far ahead of the vehicle's offset on the main path the side path `id` (or its level-1
    /// ancestor) leaves it; `nil` when a path is missing or the vehicle is not placed.
    func branchProgress(toward id: PathID) -> Double? {
        guard let vehicleOffset, let path = tree.paths[id], let branch = mainPathBranchOffset(of: path) else {
            return nil
        }
        return branch - vehicleOffset
    }
}
