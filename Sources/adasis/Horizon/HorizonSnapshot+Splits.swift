import Horizon
import RoadMap
import RoadMapStore

extension HorizonSnapshot {
    /// A junction ahead where another continuation is nearly as probable as the main path's.
    struct Split: Encodable {
        /// One continuation at the junction.
        struct Choice: Encodable {
            var way_id: Int64?
            var link_id: String
            var probability: Double
            var turn_angle_deg: Double
            /// The side path that follows it, `nil` for the main path's own continuation.
            var path_id: Int?
        }

        var distance_m: Double
        var main_path: Choice
        var alternatives: [Choice]
    }

    /// Sets ``mpp_splits`` from the engine's most probable path splits, measured from `vehicle`
    /// (the main-path offset now); splits behind the vehicle are left out.
    mutating func describe(_ splits: [MostProbablePathSplit], vehicle: Double?, map: MapFile) {
        guard let vehicle else {
            mpp_splits = []
            return
        }
        func choice(_ alternative: MostProbablePathAlternative) -> Split.Choice {
            Split.Choice(
                way_id: try? map.link(alternative.link.link).wayID, link_id: alternative.link.description,
                probability: (alternative.probability * 1000).rounded() / 1000,
                turn_angle_deg: (alternative.turnAngle * 10).rounded() / 10, path_id: alternative.sidePath?.rawValue)
        }
        mpp_splits = splits.filter { $0.offset >= vehicle }.map {
            Split(
                distance_m: (($0.offset - vehicle) * 10).rounded() / 10, main_path: choice($0.taken),
                alternatives: $0.alternatives.map(choice))
        }
    }
}
