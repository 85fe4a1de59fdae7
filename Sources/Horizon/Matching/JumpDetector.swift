import GNSS

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
