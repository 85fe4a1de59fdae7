/// Where along its link a matcher state really is: a one-dimensional Kalman filter that fuses the
/// fix's projection onto the link (noisy by the fix's accuracy) with dead reckoning from the
/// previous state (precise by the wheel or Doppler speed of the fixes).
///
/// The HMM decides *which* road the vehicle is on; its states stand at the projections of the
/// fixes, so with 5 m of GNSS noise a fix 3 m past a junction projects onto the link before it as
/// often as onto the link after it. Speed times time tells the distance driven far better than two
/// noisy fixes do, so each state carries a filtered offset, and the matched position is attributed
/// to the neighbouring link when that offset lies beyond the state's link (see
/// ``MatchedPositionPlacement``).
struct AlongTrackEstimate: Hashable, Sendable {
    /// Filtered metres from the entry of the state's directed link; may lie before its entry
    /// (negative) or past its exit (more than its length) when the vehicle has not reached the
    /// link yet or has already left it.
    var offset: Double
    /// Variance of ``offset``, square metres.
    var variance: Double
    /// The dead-reckoning prediction this estimate was fused from, in the same frame (`nil` when it
    /// was restarted from the measurement): what a fixed-lag smoother (``smoothed(by:nextFiltered:)``) needs.
    var prediction: Prediction? = nil

    /// A dead-reckoning prediction: offset and variance before the fix's measurement was fused in.
    struct Prediction: Hashable, Sendable {
        /// Predicted metres from the entry of the state's link.
        var offset: Double
        /// Its variance, square metres.
        var variance: Double
    }

    /// A state with no history: the measured offset with the measurement's variance.
    static func measured(_ candidate: MatchCandidate, sigma: Double) -> AlongTrackEstimate {
        AlongTrackEstimate(offset: candidate.measuredOffset, variance: sigma * sigma)
    }

    /// The estimate of `target` reached from `source` (estimate `self`) by driving
    /// `expectedDistance` metres along the route of length `routeDistance` (measured between the
    /// two candidates' projections), fused with `target`'s measured offset.
    ///
    /// - Parameters:
    ///   - processVariance: variance added by dead reckoning over this step, square metres; infinite
    ///     when the distance driven is unknown (the measurement alone is then used).
    ///   - sigma: 1-sigma accuracy of the fix, metres.
    ///   - gate: innovations larger than `gate` standard deviations restart the estimate from the
    ///     measurement (a U-turn, a wrong route, a jump), so a bad prediction cannot persist.
    func advanced(
        from source: MatchCandidate, to target: MatchCandidate, routeDistance: Double,
        expectedDistance: Double, processVariance: Double, sigma: Double, gate: Double
    ) -> AlongTrackEstimate {
        let measurementVariance = sigma * sigma
        guard processVariance.isFinite else {
            return AlongTrackEstimate(offset: target.measuredOffset, variance: measurementVariance)
        }
        // Route distance from the source's estimate (not its projection) to the target's entry.
        let predicted: Double
        if source.link == target.link {
            predicted = offset + expectedDistance
        } else {
            let sourceToTargetEntry = routeDistance - target.offset
            predicted = expectedDistance - (sourceToTargetEntry - (offset - source.offset))
        }
        let predictedVariance = variance + processVariance
        let innovation = target.measuredOffset - predicted
        let innovationVariance = predictedVariance + measurementVariance
        if innovation * innovation > gate * gate * innovationVariance {
            return AlongTrackEstimate(offset: target.measuredOffset, variance: measurementVariance)
        }
        let gain = predictedVariance / innovationVariance
        return AlongTrackEstimate(
            offset: predicted + gain * innovation, variance: (1 - gain) * predictedVariance,
            prediction: Prediction(offset: predicted, variance: predictedVariance))
    }

    /// This (filtered) estimate corrected by the smoothed estimate of the next state on the best
    /// path (Rauch–Tung–Striebel step): `next` was predicted from this one by dead reckoning, so
    /// where the later fixes put it tells where this state really was. Unchanged when `next` was
    /// restarted from its measurement.
    func smoothed(by next: AlongTrackEstimate, nextFiltered: AlongTrackEstimate) -> AlongTrackEstimate {
        guard let prediction = nextFiltered.prediction, prediction.variance > 0, prediction.variance.isFinite
        else { return self }
        let gain = variance / prediction.variance
        return AlongTrackEstimate(
            offset: offset + gain * (next.offset - prediction.offset),
            variance: max(0, variance + gain * gain * (next.variance - prediction.variance)),
            prediction: prediction)
    }
}
