import Foundation
import GNSS

extension OnlineMapMatcher {
    /// Least turn of the fixes' courses over a step, degrees, for a candidate past a node to be
    /// judged against the step's course: more than a receiver's course scatters on a straight road.
    static let leastTurnThroughNode = 5.0

    /// What the emission's heading term of `candidate`, entered from `source`'s link within the last
    /// step, gains when the fix's course is judged against the course of that step rather than the
    /// candidate's link alone: the direction of the last `stepLength` metres driven, the part before
    /// the node along `source` and `candidate.offset` along the new link (a simulator's course is
    /// that chord; a receiver's tangent mid-turn lies between the two roads too). Only where the road
    /// turns the way the fixes turned (`turned`, signed, right positive), and never a loss: a course
    /// already along the new road keeps its score. Zero for a candidate further in than the step.
    func courseCredit(
        from source: MatchCandidate, to candidate: MatchCandidate, stepLength: Double, fix: GNSSFix, turned: Double
    ) -> Double {
        guard let heading = fix.heading, candidate.offset < stepLength,
            signedTurnAngle(from: source.bearing, to: candidate.bearing) * turned > 0
        else { return 0 }
        let entered = candidate.offset, before = stepLength - entered
        let a = source.bearing * .pi / 180, b = candidate.bearing * .pi / 180
        let east = before * sin(a) + entered * sin(b), north = before * cos(a) + entered * cos(b)
        guard east * east + north * north > 1e-6 else { return 0 }
        let step = atan2(east, north)
        let h = heading * .pi / 180
        // The emission charged weight · (1 − cos Δ) against the link; charge it against the step.
        return max(0, configuration.headingWeight * (cos(h - step) - cos(h - b)))
    }
}
