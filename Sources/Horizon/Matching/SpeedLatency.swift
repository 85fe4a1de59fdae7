import Foundation
import GNSS

/// How late the fixes' speeds are, learnt from how the dead reckoning misses the fixes while the
/// vehicle speeds up and slows down, so the matcher can take the speed at the fix's own time.
///
/// A receiver that filters its velocity, or a wheel speed that comes over CAN and is stamped when it
/// arrives, reports the speed of a moment before the fix. Dead reckoning from such speeds falls
/// behind while the vehicle speeds up and runs ahead while it slows down, by the latency times the
/// change of speed: 0.5 s late over a start from a signal to 14 m/s is 7 m, enough to put a fix a
/// junction early or late. The latency τ is a constant of the installation, so it is estimated once
/// and for all from the fixes: with the speeds taken as `v + τ̂ a` (`a` the change of the reported
/// speed per second), each step of the dead reckoning errs along its course by `(τ − τ̂)` times the
/// step's change of speed, and the filter's estimate carries the sum of those errors, shrunk by
/// `1 − gain` at each fix (``DeadReckoningFilter``). The innovation of each fix is that carried error
/// plus noise, a linear measurement of `τ − τ̂` fused by a scalar Kalman filter. While the vehicle
/// keeps its speed there is nothing to learn, and the estimate keeps its value.
///
/// Only the part of the estimate beyond its own 1-sigma uncertainty is applied
/// (``appliedLatency``): speeds that are on time leave an estimate about as large as its spread, and
/// applying that would add an error. Deterministic: it reads nothing but the fixes.
struct SpeedLatency: Sendable {
    /// The estimate, seconds (positive: the speeds are late), and its variance (s²).
    private(set) var estimate = 0.0
    private(set) var variance: Double
    /// Metres east and north by which the dead reckoning's estimate has moved per second of error
    /// in ``estimate``: the sum of the steps' changes of speed along their courses since the track
    /// started, each shrunk by the fusions after it.
    private var sensitivity = (x: 0.0, y: 0.0)
    /// The same sum with each step's change of speed times the latency taken off its speeds
    /// (``appliedLatency``, less than the estimate): the dead reckoning's estimate errs by
    /// `τ sensitivity − applied`, so a fix's innovation measures `τ` against that.
    private var applied = (x: 0.0, y: 0.0)
    /// The last fix's speed as received, and its time.
    private var lastSpeed: (time: Double, speed: Double)?
    /// Whether the fixes teach the estimate (false for a latency that is known).
    private let learns: Bool

    /// Latencies beyond these are not a receiver's (seconds): the estimate is held within them.
    static let range = MatcherConfiguration.speedLatencyRange
    /// Variance added per fix (s²): the latency may change slowly (a receiver's setting, a CAN load),
    /// and innovations that are correlated must not make the estimate certain for ever.
    static let processVariance = 1e-4

    /// An estimate that starts at 0 with a prior 1-sigma of `sigma` seconds.
    init(sigma: Double) {
        variance = sigma * sigma
        learns = true
    }

    /// A latency that is known, `seconds` (held within ``range``): applied as it is, never learnt.
    init(known seconds: Double) {
        estimate = min(Self.range.upperBound, max(Self.range.lowerBound, seconds))
        variance = 0
        learns = false
    }

    /// The latency taken off the speeds: the part of the estimate beyond its 1-sigma uncertainty.
    var appliedLatency: Double {
        let spread = variance.squareRoot()
        if estimate > spread { return estimate - spread }
        if estimate < -spread { return estimate + spread }
        return 0
    }

    /// The speed `fix` reports, moved on by ``appliedLatency`` at the rate its speed changed since the
    /// previous fix: the speed at the fix's own time (never below 0). `nil` for a fix without speed;
    /// unchanged after a time gap of more than `maximumGap` seconds.
    mutating func speedAtFixTime(_ fix: GNSSFix, maximumGap: Double) -> Double? {
        guard let speed = fix.speed else {
            lastSpeed = nil
            return nil
        }
        defer { lastSpeed = (fix.time, speed) }
        guard let lastSpeed, fix.time > lastSpeed.time, fix.time - lastSpeed.time <= maximumGap else { return speed }
        let acceleration = (speed - lastSpeed.speed) / (fix.time - lastSpeed.time)
        return max(0, speed + appliedLatency * acceleration)
    }

    /// A step of the dead reckoning along `course` (a unit vector east, north) whose speed changed
    /// by `speedChange` m/s: a latency error of 1 s moves its end by `speedChange` metres along it.
    mutating func stepped(course: (x: Double, y: Double), speedChange: Double) {
        guard learns else { return }
        sensitivity.x += course.x * speedChange
        sensitivity.y += course.y * speedChange
        applied.x += course.x * speedChange * appliedLatency
        applied.y += course.y * speedChange * appliedLatency
    }

    /// Learns from a fix's innovation (metres east, north; fix minus the dead-reckoned prediction)
    /// of variance `innovationVariance` per axis, which the filter then fused with `gain`.
    mutating func learn(innovation: (x: Double, y: Double), innovationVariance: Double, gain: Double) {
        guard learns else { return }
        variance += Self.processVariance
        let r2 = sensitivity.x * sensitivity.x + sensitivity.y * sensitivity.y
        if r2 > 0, innovationVariance > 0 {
            let denominator = variance * r2 + innovationVariance
            let k = variance / denominator
            // The innovation the estimate predicts, and what the fix says beyond it.
            let residualX = innovation.x - (estimate * sensitivity.x - applied.x)
            let residualY = innovation.y - (estimate * sensitivity.y - applied.y)
            let updated = estimate + k * (sensitivity.x * residualX + sensitivity.y * residualY)
            estimate = min(Self.range.upperBound, max(Self.range.lowerBound, updated))
            variance *= innovationVariance / denominator
        }
        sensitivity.x *= 1 - gain
        sensitivity.y *= 1 - gain
        applied.x *= 1 - gain
        applied.y *= 1 - gain
    }

    /// The dead reckoning started a new track at a fix: nothing it carries depends on the estimate.
    mutating func trackRestarted() {
        sensitivity = (0, 0)
        applied = (0, 0)
    }
}
