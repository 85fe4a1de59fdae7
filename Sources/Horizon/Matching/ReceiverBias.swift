import Foundation
import RoadMap

/// The slowly varying part of a receiver's position error (the atmosphere, the satellites in view),
/// estimated from where the fixes lie beside the roads they are matched to, so the matcher can take
/// it off the next fixes.
///
/// A real receiver's error is not independent from one fix to the next: a good part of it stays for
/// minutes, so a fix 3 m left of its road is followed by more fixes 3 m left of it, and an HMM that
/// takes each fix as a fresh draw then finds a fork's other branch, or a road beside, as near as the
/// one driven. The bias is a two-dimensional Gauss–Markov process (east and north, 1 σ
/// ``MatcherConfiguration/receiverBiasSigma`` per axis, correlation time
/// ``MatcherConfiguration/receiverBiasTime``), estimated by a Kalman filter whose measurement is a
/// confidently matched fix's offset to the right of its road in the driving direction. That offset
/// is the bias's component across the road plus where the vehicle drives across it (its lane: a car
/// keeps right of a two-way road's line), a third state that turns with the vehicle: on one road the
/// two cannot be told apart, and each turn onto a road in another direction separates them.
struct ReceiverBias: Sendable {
    /// The estimate: metres east, metres north, metres right of the road's line.
    private var x: SIMD3<Double> = .zero
    /// Its covariance, rows.
    private var p: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) = (.zero, .zero, .zero)
    /// The time of the estimate; `nil` before the first fix.
    private var time: Double?

    /// The estimated bias, metres east.
    var east: Double { x.x }
    /// The estimated bias, metres north.
    var north: Double { x.y }

    /// Moves the estimate on to `time`: the bias decays towards 0 and its uncertainty grows
    /// towards the prior's; the lane offset keeps its value and grows a little less certain.
    mutating func predict(to newTime: Double, _ configuration: MatcherConfiguration) {
        let variance = configuration.receiverBiasSigma * configuration.receiverBiasSigma
        let lane = configuration.receiverLaneSigma * configuration.receiverLaneSigma
        guard let time else {
            self.time = newTime
            p = (SIMD3(variance, 0, 0), SIMD3(0, variance, 0), SIMD3(0, 0, lane))
            return
        }
        let dt = max(0, newTime - time)
        self.time = newTime
        let rho = exp(-dt / max(configuration.receiverBiasTime, 0.1))
        let laneRho = exp(-dt / max(configuration.receiverLaneTime, 0.1))
        let decay = SIMD3(rho, rho, laneRho)
        x *= decay
        p.0 *= decay * decay.x
        p.1 *= decay * decay.y
        p.2 *= decay * decay.z
        p.0.x += variance * (1 - rho * rho)
        p.1.y += variance * (1 - rho * rho)
        p.2.z += lane * (1 - laneRho * laneRho)
    }

    /// What is taken off the fixes, metres east and north: the part of the estimate beyond its own
    /// uncertainty. A receiver without a bias leaves an estimate about as large as its spread, and
    /// taking that off would add an error.
    var correction: (east: Double, north: Double) {
        let size = (x.x * x.x + x.y * x.y).squareRoot()
        guard size > 0 else { return (0, 0) }
        let spread = (0.5 * (p.0.x + p.1.y)).squareRoot()
        let scale = max(0, 1 - spread / size)
        return (x.x * scale, x.y * scale)
    }

    /// `point` with ``correction`` taken off.
    func corrected(_ point: GeoPoint) -> GeoPoint {
        let (east, north) = correction
        guard east != 0 || north != 0 else { return point }
        return LocalProjection(origin: point).unproject(x: -east, y: -north)
    }

    /// Fuses one measurement: the fix (before correction) lies `right` metres right of its road,
    /// which the vehicle drives on at `bearing` (degrees).
    mutating func update(right: Double, bearing: Double, _ configuration: MatcherConfiguration) {
        // The unit vector to the right of the driving direction, east and north; and the lane.
        let angle = bearing * .pi / 180
        let h = SIMD3(cos(angle), -sin(angle), 1)
        let ph = SIMD3((p.0 * h).sum(), (p.1 * h).sum(), (p.2 * h).sum())
        let r = configuration.receiverBiasMeasurementSigma * configuration.receiverBiasMeasurementSigma
        let s = (h * ph).sum() + r
        guard s > 0, s.isFinite, right.isFinite else { return }
        let k = ph / s
        x += k * (right - (h * x).sum())
        p.0 -= k.x * ph
        p.1 -= k.y * ph
        p.2 -= k.z * ph
    }
}
