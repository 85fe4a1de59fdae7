import Foundation
import GNSS
import RoadMap

/// Where the vehicle is, from the fixes and the way it drove between them: a Kalman filter in the
/// plane that moves its estimate by the distance the fix speeds say the vehicle drove, in the
/// direction the fix headings say, and pulls it towards each fix by how much more the fix is
/// worth than the estimate.
///
/// A receiver's position errs by metres from fix to fix; its speed and course (Doppler) err by a
/// few tenths of a metre per second and a degree or two. Driven distance and direction therefore
/// tell the *shape* of the track far better than the positions do, and the fixes only have to place
/// that shape: with 5 m of noise the fused position errs by about 1.5 m instead of 5 (per axis),
/// through bends and turns too, where the along-track estimate of each HMM state
/// (``AlongTrackEstimate``) has to loosen because the car does not drive the map's polyline. The
/// HMM then scores and places the fused position.
///
/// The fixes' own scatter is learnt from the innovations (fix minus prediction, per axis; a
/// reported accuracy serves until ten are in), so a good receiver's fixes are followed closely and
/// a poor one's averaged. The filter restarts at the fix after a time gap, when a fix lacks speed or
/// course while moving, at the second fix in a row beyond the gate (a receiver jump; a single one is
/// coasted over, an outlier), and when the fixes run off one way for a few seconds (the
/// innovations' trend beyond its gate at two fixes in a row). Deterministic: it reads nothing but the fixes.
struct DeadReckoningFilter: Sendable {
    /// The estimate, with its variance per axis (square metres).
    private var estimate: GeoPoint?
    private var variance = 0.0
    /// The fix the estimate was last moved to.
    private var lastFix: GNSSFix?
    /// Mean of the squared innovation per axis (clipped), and how many went into it.
    private var innovationMeanSquare = RunningMean()

    /// Exponential mean of the innovations (east, north), metres: near zero while the dead
    /// reckoning explains the fixes.
    private var innovationTrend = (x: 0.0, y: 0.0)
    /// Whether the last fix lay beyond the gate and was coasted over.
    private var coasting = false
    /// Whether the innovations' trend lay beyond its gate at the last fix.
    private var trendBeyondGate = false

    /// Fixes beyond the gate coasted over (outliers), since the filter was created.
    private(set) var fixesCoasted = 0
    /// Tracks restarted because the fixes disagreed with the dead reckoning (a second fix in a row
    /// beyond the gate, or their trend beyond its gate), since the filter was created.
    private(set) var disagreements = 0
    /// Steps dead-reckoned by the velocity accuracy the fixes reported, and by the configured
    /// drifts (``MatcherConfiguration/reportedVelocityDistanceDrift``), since the filter was created.
    private(set) var steps = (byReportedVelocity: 0, byConfiguredDrift: 0)
    /// How late the fixes' speeds are, learnt from the innovations (``SpeedLatency``); `nil` when
    /// not estimated. The caller takes each fix's speed from it before the fix comes in here.
    var speedLatency: SpeedLatency?

    /// Innovations needed before their mean replaces ``MatcherConfiguration/defaultAccuracy``.
    private static let innovationsNeeded = 10
    /// Weight of the newest innovation in ``innovationTrend``, and how many of its standard
    /// deviations restart the track: fixes that run off one way for a few seconds (a course that
    /// is wrong, a vehicle leaving the road sideways) are followed within two or three fixes
    /// rather than averaged away, while noise (zero-mean innovations) seldom moves the trend that far.
    private static let trendWeight = 0.3
    private static let trendGate = 4.0

    /// Forgets the track (a reset of the matcher); the learnt scatter of the fixes is kept unless
    /// `scatter` is true.
    mutating func reset(scatter: Bool = true) {
        estimate = nil
        lastFix = nil
        variance = 0
        if scatter {
            innovationMeanSquare = RunningMean()
        }
    }

    /// The fused position once `fix` is in, and its 1-sigma accuracy per axis (metres).
    mutating func update(_ fix: GNSSFix, _ configuration: MatcherConfiguration) -> (point: GeoPoint, accuracy: Double) {
        let measured = fix.point
        defer { lastFix = fix }
        guard let estimate, let lastFix, let step = Self.step(from: lastFix, to: fix, configuration) else {
            return restart(at: measured, variance: measurementVariance(fix, predictedVariance: 0, configuration))
        }
        let projection = LocalProjection(origin: estimate)
        let process = Self.processVariance(of: step, from: lastFix, to: fix, configuration)
        if process.byReportedVelocity { steps.byReportedVelocity += 1 } else { steps.byConfiguredDrift += 1 }
        let predictedVariance = variance + process.variance + step.unknownDirectionVariance
        let fixVariance = measurementVariance(fix, predictedVariance: predictedVariance, configuration)
        if let course = step.course { speedLatency?.stepped(course: course, speedChange: step.speedChange) }
        let z = projection.project(measured)
        let innovationX = z.x - step.x, innovationY = z.y - step.y
        let innovationSquare = (innovationX * innovationX + innovationY * innovationY) / 2
        let gate = configuration.deadReckoningGate
        if innovationSquare > gate * gate * (predictedVariance + fixVariance) {
            // One fix beyond the gate is coasted over (an outlier the matcher's gate let through);
            // a second in a row is where the vehicle is (a receiver jump).
            guard coasting else {
                coasting = true
                fixesCoasted += 1
                let predicted = projection.unproject(x: step.x, y: step.y)
                self.estimate = predicted
                variance = predictedVariance
                return (predicted, variance.squareRoot())
            }
            disagreements += 1
            return restart(at: measured, variance: fixVariance)
        }
        coasting = false
        let w = Self.trendWeight
        innovationTrend.x += w * (innovationX - innovationTrend.x)
        innovationTrend.y += w * (innovationY - innovationTrend.y)
        // Per axis, the trend of zero-mean innovations has variance w / (2 − w) of theirs; its
        // length beyond `trendGate` of those deviations happens by chance at e^−8 of fixes.
        let trendSquare = innovationTrend.x * innovationTrend.x + innovationTrend.y * innovationTrend.y
        let trendVariance = w / (2 - w) * (predictedVariance + fixVariance)
        // Beyond it at two fixes in a row: one large innovation (an outlier inside the gate)
        // moves the trend too, and is fused as any fix is.
        if trendSquare > Self.trendGate * Self.trendGate * trendVariance {
            if trendBeyondGate {
                disagreements += 1
                return restart(at: measured, variance: fixVariance)
            }
            trendBeyondGate = true
        } else {
            trendBeyondGate = false
        }
        // The scatter learnt from innovations clipped at 3 σ: fixes the dead reckoning does not
        // explain for a while (a drift before the trend restarts the track) must not teach the
        // filter that the receiver is poor, or it would average the fixes for many seconds after.
        let clipped = min(innovationSquare, 9 * (predictedVariance + fixVariance))
        innovationMeanSquare.add(clipped, floorWeight: configuration.accuracyEstimateWeight)
        let gain = predictedVariance / (predictedVariance + fixVariance)
        speedLatency?.learn(
            innovation: (innovationX, innovationY), innovationVariance: predictedVariance + fixVariance, gain: gain)
        let fused = projection.unproject(x: step.x + gain * innovationX, y: step.y + gain * innovationY)
        self.estimate = fused
        variance = (1 - gain) * predictedVariance
        return (fused, variance.squareRoot())
    }

    /// Variance per axis of the fix: the scatter learnt from the innovations (less the
    /// prediction's own share, `predictedVariance`) once enough are in, else the receiver's
    /// accuracy when it reports one, else the default. The learnt scatter wins over a reported
    /// accuracy: receivers derive theirs from HDOP times an assumed range error
    /// (``NMEAFixAssembler/userEquivalentRangeError``), often metres off the scatter they really
    /// have, and a filter that believes 5 m of a receiver good to decimetres lags through every turn.
    private func measurementVariance(
        _ fix: GNSSFix, predictedVariance: Double, _ configuration: MatcherConfiguration
    ) -> Double {
        let floor = configuration.deadReckoningMinimumAccuracy
        if innovationMeanSquare.count >= Self.innovationsNeeded {
            return max(floor * floor, innovationMeanSquare.value - predictedVariance)
        }
        return pow(max(floor, fix.horizontalAccuracy ?? configuration.defaultAccuracy), 2)
    }

    private mutating func restart(at point: GeoPoint, variance: Double) -> (point: GeoPoint, accuracy: Double) {
        estimate = point
        speedLatency?.trackRestarted()
        innovationTrend = (0, 0)
        coasting = false
        trendBeyondGate = false
        self.variance = variance
        return (point, variance.squareRoot())
    }

    /// What dead reckoning adds to the variance per axis over `step` (square metres): by the
    /// configured drifts, or, where both fixes report how accurate their speed and course are and
    /// that says less, by those accuracies (the speed's error over the step's time along its
    /// course, the course's over its distance across it, the two shared between the axes) and the
    /// smaller drifts of what no receiver reports (``MatcherConfiguration/reportedVelocityDistanceDrift``).
    /// Never more than the configured drifts: where a receiver reports no velocity error, gpsd's
    /// own error model stands in, and it can be far more pessimistic than the speeds are. With
    /// whether the reported accuracies gave it.
    private static func processVariance(
        of step: Step, from previous: GNSSFix, to fix: GNSSFix, _ configuration: MatcherConfiguration
    ) -> (variance: Double, byReportedVelocity: Bool) {
        let configured =
            pow(configuration.deadReckoningDistanceDrift * step.distance, 2)
            + pow(configuration.deadReckoningTimeDrift * step.time, 2)
        guard let speed0 = previous.speedAccuracy, let speed1 = fix.speedAccuracy,
            let course0 = previous.headingAccuracy, let course1 = fix.headingAccuracy
        else { return (configured, false) }
        // The distance is the mean of the two speeds times the time; the course, their mean.
        let along = step.time * (speed0 * speed0 + speed1 * speed1).squareRoot() / 2
        let across = step.distance * min(1, (course0 + course1) / 2 * .pi / 180)
        let reported =
            (along * along + across * across) / 2
            + pow(configuration.reportedVelocityDistanceDrift * step.distance, 2)
            + pow(configuration.reportedVelocityTimeDrift * step.time, 2)
        return reported < configured ? (reported, true) : (configured, false)
    }

    /// One step of dead reckoning between two fixes.
    private struct Step {
        /// Metres east and north of the estimate the vehicle drove.
        var x: Double, y: Double
        /// Metres driven and seconds elapsed.
        var distance: Double, time: Double
        /// Variance per axis added where no course tells the direction (slow driving).
        var unknownDirectionVariance: Double
        /// The direction of the step (a unit vector east, north), `nil` where no course tells it.
        var course: (x: Double, y: Double)?
        /// The change of speed from the first fix to the second, m/s.
        var speedChange: Double
    }

    /// The step from `previous` to `fix`, nil when it cannot be dead-reckoned: a time gap, a
    /// missing speed, or a moving vehicle with no course.
    private static func step(from previous: GNSSFix, to fix: GNSSFix, _ configuration: MatcherConfiguration) -> Step? {
        let dt = fix.time - previous.time
        guard dt > 0, dt <= configuration.maximumTimeGap, let v0 = previous.speed, let v1 = fix.speed else {
            return nil
        }
        let distance = 0.5 * (v0 + v1) * dt
        let threshold = configuration.headingSpeedThreshold
        let headings = [(v0, previous.heading), (v1, fix.heading)].compactMap { speed, heading in
            speed > threshold ? heading : nil
        }
        guard !headings.isEmpty else {
            // Too slow for a course: the vehicle moved at most `distance`, in a direction unknown.
            guard distance <= 2 * threshold * dt else { return nil }
            return Step(
                x: 0, y: 0, distance: distance, time: dt, unknownDirectionVariance: distance * distance / 2,
                course: nil, speedChange: v1 - v0)
        }
        // The chord of a steady turn runs along the mean of the courses at its ends.
        var sinSum = 0.0, cosSum = 0.0
        for heading in headings {
            sinSum += sin(heading * .pi / 180)
            cosSum += cos(heading * .pi / 180)
        }
        // Courses far apart (turning round) leave the chord's direction unsure: the shorter the
        // mean course vector, the more of the distance counts as of unknown direction.
        let direction = atan2(sinSum, cosSum)
        let resultant = (sinSum * sinSum + cosSum * cosSum).squareRoot() / Double(headings.count)
        return Step(
            x: distance * sin(direction), y: distance * cos(direction), distance: distance, time: dt,
            unknownDirectionVariance: distance * distance * (1 - resultant) / 2,
            course: (sin(direction), cos(direction)), speedChange: v1 - v0)
    }
}
