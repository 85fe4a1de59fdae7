import GNSS
import RoadMap

/// Decides when two consecutive fixes cannot belong to one continuous drive: time going
/// backwards, a gap longer than allowed, or a displacement the vehicle's speed cannot explain.
struct JumpDetector {
    /// Tuning.
    var configuration: MatcherConfiguration

    /// Whether `fix` breaks continuity with `previous`.
    func isBreak(from previous: GNSSFix, to fix: GNSSFix) -> Bool {
        let dt = fix.time - previous.time
        if dt < 0 || dt > configuration.maximumTimeGap { return true }
        return previous.point.distance(to: fix.point) > allowedDistance(from: previous, to: fix, dt: dt)
    }

    /// The farthest the vehicle can plausibly appear to move in `dt` seconds: twice its speed
    /// (plus 5 m/s for acceleration) when known, the plausible maximum otherwise, plus the noise of both fixes.
    func allowedDistance(from previous: GNSSFix, to fix: GNSSFix, dt: Double) -> Double {
        var speed = configuration.maximumPlausibleSpeed
        if let v0 = previous.speed, let v1 = fix.speed {
            speed = min(speed, 2 * max(v0, v1) + 5)
        }
        let noise =
            3
            * (configuration.sigma(for: previous.horizontalAccuracy) + configuration.sigma(for: fix.horizontalAccuracy))
        return speed * dt + noise + 10
    }
}

extension JumpDetector {
    /// Whether the matched position leapt between two fixes: it moved farther than
    /// ``allowedDistance(from:to:dt:)`` — along the link when it stayed on it or turned round on
    /// it, in a straight line otherwise. A leap (the best path switching to a far state, a
    /// direction turned round far from where it was) must not carry a horizon along its tree
    /// past everything in between: the match is then a discontinuity. Crossing a junction, or
    /// trading the link before it for a road leaving it, stays within the distance.
    func isLeap(
        from previous: MatchedPosition, at previousFix: GNSSFix, to position: MatchedPosition, at fix: GNSSFix,
        network: any RoadNetwork
    ) throws -> Bool {
        let limit = allowedDistance(from: previousFix, to: fix, dt: max(0, fix.time - previousFix.time))
        if previous.link == position.link { return abs(position.offset - previous.offset) > limit }
        if previous.link == position.link.reversed {
            let length = try network.link(position.link.link).length
            return abs(length - position.offset - previous.offset) > limit
        }
        return previous.point.distance(to: position.point) > limit
    }
}
