/// Tuning of the map matchers. Every distance is in metres, every speed in metres per second.
///
/// The defaults suit a passenger car with a consumer GNSS receiver at 1–10 Hz.
public struct MatcherConfiguration: Hashable, Sendable {
    /// Horizontal accuracy (1 sigma) assumed when a fix does not report one.
    public var defaultAccuracy: Double = 5
    /// Lower bound of the accuracy used for the emission, so an over-optimistic receiver cannot
    /// make the matcher snap to the wrong road.
    public var minimumAccuracy: Double = 3
    /// For fixes without a reported accuracy: estimate it from the matched residuals instead of
    /// assuming ``defaultAccuracy``. The estimate is √(mean d² / 2) over roughly the last 20 fixes
    /// (exponential average, weight ``accuracyEstimateWeight``), d being the distance from a fix to
    /// its matched point (a 2-D error with σ per axis has E[d²] = 2σ²); it is used once
    /// ``accuracyEstimateMinimumFixes`` residuals are in, clamped to
    /// ``minimumAccuracy``…``maximumEstimatedAccuracy``. A receiver that is better than assumed
    /// then gets less smoothing (less lag after junctions), a worse one more.
    public var estimatesAccuracy = true
    /// Weight of each new residual in the accuracy estimate.
    public var accuracyEstimateWeight: Double = 0.05
    /// Residuals needed before the estimate replaces ``defaultAccuracy``.
    public var accuracyEstimateMinimumFixes: Int = 10
    /// Upper bound of the estimated accuracy.
    public var maximumEstimatedAccuracy: Double = 15
    /// Smallest radius searched for candidate links around a fix.
    public var minimumSearchRadius: Double = 30
    /// Largest radius searched for candidate links, whatever the fix's accuracy.
    public var maximumSearchRadius: Double = 100
    /// Candidate (directed link) states kept per fix, the closest ones.
    public var maximumCandidates: Int = 16
    /// Above this speed the fix's heading takes part in the emission.
    public var headingSpeedThreshold: Double = 2
    /// Weight of heading agreement: the emission loses `headingWeight × (1 − cos Δ)` in log
    /// probability, Δ being the angle between the fix heading and the link's driving direction.
    public var headingWeight: Double = 3
    /// Weight of the heading of a fix at or below ``headingSpeedThreshold``, while the driving
    /// direction is not settled yet (no faster fix since the matcher started or restarted): the
    /// distance cannot tell the two directions of a road apart, and a receiver at standstill
    /// reports the heading it last moved in (or, with dead reckoning, the vehicle's), so the
    /// first horizon points the way the vehicle faces instead of a guessed way, and is not
    /// rebuilt when the vehicle moves off. Small, so the first moving fix decides: a heading from
    /// a receiver that reports noise at standstill is then no worse than the guess. 0 ignores
    /// such headings. Default 0.5.
    public var standstillHeadingWeight: Double = 0.5
    /// Whether a candidate just past a node is expected to show the course of the last step driven
    /// (the rest of the link left and the start of the one entered, weighed by the metres on each)
    /// rather than its own link's direction: a fix taken a few metres into a turn shows a course
    /// between the two roads', and judged against the new road alone it favoured the road straight
    /// on. Default true.
    public var expectsCourseThroughNode: Bool = true
    /// β of the transition probability `exp(−|route distance − expected distance| / β)`.
    public var transitionScale: Double = 10
    /// Longest route searched between the candidates of two consecutive fixes.
    public var maximumRouteDistance: Double = 500
    /// Drift of dead reckoning along the road on a straight stretch, metres per second (1 sigma):
    /// how far the distance predicted from the fix speeds (mean speed × time) may be off after one
    /// second — speed error and acceleration within the second. Each HMM state fuses this
    /// prediction with the fix's projection (Kalman filter along the link, see
    /// ``OnlineMapMatcher``), which decides on which side of a junction the vehicle is. Infinite
    /// turns the fusion off (projection only). Default 0.5 (issue 15: 1 m/s before, with no turn
    /// term; `README.md`, "Way correct").
    public var alongTrackDrift: Double = 0.5
    /// Extra drift of dead reckoning while the vehicle turns, metres (1 sigma) per 90° of heading
    /// change between two fixes, added in quadrature to ``alongTrackDrift``: through a junction or a
    /// bend the line driven is not the map's polyline (a car cuts a right-angle corner of radius
    /// r by 0.43 r, and lanes run beside the centre line), so the prediction is loose there and
    /// tight on the straight, and the estimate settles again within a few fixes of each turn.
    /// Needs the headings of both fixes at speeds above ``headingSpeedThreshold``. Default 6.
    public var alongTrackTurnDrift: Double = 6
    /// Innovation gate of that fusion, in standard deviations: a projection farther than this from
    /// the prediction restarts the estimate from the projection (a U-turn, a wrong route). Default
    /// 5: at 3, one fix in a few hundred (5 m noise) restarted a good estimate.
    public var alongTrackGate: Double = 5
    /// Fuse each fix with dead reckoning from the fixes before it (``DeadReckoningFilter``: the
    /// distance the speeds say, in the direction the courses say) and match the fused position
    /// rather than the fix. Needs fixes with speed and course; a fix without them is matched as it
    /// is. Default on (stop 54): on the ten noisy drives way correct 96.6 → 97.5 %, the check set
    /// 94.6 → 96.3 %, the clean traces unchanged (`Docs/measurements.md`, stop 54). Off for a
    /// receiver whose speed or course cannot be trusted (`adasis … --no-dead-reckoning`, the
    /// daemon's `gnss.dead_reckoning`).
    public var fusesDeadReckoning = true
    /// Estimate the slowly varying part of the receiver's error (the atmosphere's, the satellites'
    /// in view: metres that stay for minutes) from where confidently matched fixes lie beside their
    /// roads, and take the part of it larger than the estimate's own uncertainty off the next fixes
    /// before they are matched (``ReceiverBias``). For a receiver without corrections (single
    /// frequency, no SBAS or RTK). Off by default (stop 56): on the drives' independent 5 m noise
    /// it changes nothing (97.37 against 97.35 % way correct over ten draws per drive,
    /// `Tools/noise_seeds.py`); with noise that wanders (5 m, correlation time 3 s) and a constant
    /// offset per drive (2.5 m per axis) it gains 92.2 → 92.9 % (check set 89.1 → 90.2 %).
    public var estimatesReceiverBias = false
    /// Estimate how late the fixes' speeds are (a receiver that filters its velocity, a wheel speed
    /// stamped when it arrives over CAN) from how the dead reckoning misses the fixes while the
    /// vehicle speeds up and slows down, and take each fix's speed at its own time: the reported
    /// speed moved on by the part of the estimate beyond its uncertainty at the rate the speed
    /// changes (``SpeedLatency``). Needs ``fusesDeadReckoning``.
    public var estimatesSpeedLatency = false
    /// 1-sigma of that latency before any fix, seconds: how far from on time a speed is expected to
    /// be. Default 0.5.
    public var speedLatencySigma: Double = 0.5
    /// How late the fixes' speeds are when that is known (seconds, −1…2; measured on a recorded
    /// drive with ``estimatesSpeedLatency``, or a CAN signal's documented latency): each speed is
    /// taken at its fix's time by it from the first fix on, and nothing is learnt. Overrides
    /// ``estimatesSpeedLatency``; works without dead reckoning too. Default `nil` (none).
    public var knownSpeedLatency: Double?
    /// The latencies a speed can have, seconds: a known one is held within them, and so is the
    /// estimate (beyond them it is not a receiver's).
    public static let speedLatencyRange = -1.0...2.0
    /// 1-sigma size of that bias per axis, metres. Default 2.
    public var receiverBiasSigma: Double = 2
    /// How long the bias keeps its value, seconds (its correlation time). Default 300.
    public var receiverBiasTime: Double = 300
    /// 1-sigma error of one matched fix's offset across its road as a measure of the bias, metres:
    /// the fix's own independent noise and the match's. Default 4.
    public var receiverBiasMeasurementSigma: Double = 4
    /// 1-sigma of where the vehicle drives across its road, right of the map's line in its driving
    /// direction (its lane), metres: estimated with the bias, as a fix's offset from its road is
    /// both. Default 1.5.
    public var receiverLaneSigma: Double = 1.5
    /// How long the vehicle keeps that place across the road, seconds. Default 120.
    public var receiverLaneTime: Double = 120
    /// The least confidence of a match (``MatchedPosition/confidence``) for its fix to measure the
    /// bias. Default 0.9.
    public var receiverBiasConfidence: Double = 0.9
    /// Error of that dead reckoning per metre driven, metres (1 sigma per axis): course and speed
    /// errors, a lane change, a wheel's slip. Default 0.1.
    public var deadReckoningDistanceDrift: Double = 0.1
    /// Error of that dead reckoning per second, metres (1 sigma per axis): the speed's own error,
    /// and how the speed changes within a second. Default 0.2.
    public var deadReckoningTimeDrift: Double = 0.2
    /// Where both fixes of a step report the accuracy of their speed and course
    /// (``GNSSFix/speedAccuracy``, ``GNSSFix/headingAccuracy``: gpsd's `eps` and `epd`), dead
    /// reckoning errs by what they say (the speed's error over the step's time along the course,
    /// the course's error over its distance across it) and, on top, by this much per metre driven
    /// (metres, 1 sigma per axis): the chord of a turn, a lane change, the map's lengths. It then
    /// replaces ``deadReckoningDistanceDrift`` where that gives less (never more than the
    /// configured drifts: gpsd's error model, standing in where a receiver reports none, can be
    /// far more pessimistic than its speeds are). Default 0.02.
    public var reportedVelocityDistanceDrift: Double = 0.02
    /// The same per second (metres, 1 sigma per axis), replacing ``deadReckoningTimeDrift``: how the
    /// speed changes within a second. Default 0.1.
    public var reportedVelocityTimeDrift: Double = 0.1
    /// The least accuracy (1 sigma per axis, metres) the fusion credits a fix with, learnt or
    /// reported, so it never follows a fix blindly. Default 1.
    public var deadReckoningMinimumAccuracy: Double = 1
    /// Innovation gate of that fusion, in standard deviations per axis: a fix farther than this
    /// from the prediction restarts the fused track at the fix (a receiver jump, a dead-reckoning
    /// error). Default 5.
    public var deadReckoningGate: Double = 5
    /// Log-probability subtracted from the emission of candidates on service roads
    /// (`highway=service`): OSM often maps a service road or parking lane a metre or two beside a
    /// street, where the distance cannot tell them apart, and traffic is on the street far more
    /// often. 1 is the distance term of a fix about 1.4 σ farther away, so a service road 15 m
    /// beside the street still wins for a car that drives on it. Measured on the ten drives
    /// (issue 15): 1 raises way correct on the noisy traces from 94.1 to 94.7 % (clean 96.3 →
    /// 97.0 %); 2 loses the service-road drive. It once made the kamppi drive's first fix (speed 0,
    /// no usable heading) match Yrjönkatu against the direction of travel, and the horizon then
    /// jumped 846 m along that main path; the matcher now restarts the horizon when the first
    /// moving fix turns a guessed direction round, and the engine rebuilds instead of jumping
    /// (``HorizonConfiguration/maximumSpeed``).
    public var serviceRoadPenalty: Double = 1
    /// Extra route distance charged for turning around at a node (U-turn).
    public var uTurnPenalty: Double = 50
    /// Extra distance charged for turning round inside a link, where the vehicle is (a U-turn
    /// mid-block on a two-way street, a three-point turn), metres; `nil` turns round only at nodes.
    /// The transition is then the distance back to where the vehicle was estimated plus this
    /// charge, and the along-track estimate starts again from the fix. Default 20 (stop 52): a car
    /// turning round at 3 m/s on kaisaniemi (130–133 s) is matched to its street the other way; at
    /// 50, the node's charge, only on the clean trace, the noisy one still going to a side road
    /// 8–12 m away; 10 and 20 m change no other drive's matched way (36 traces); 0 costs
    /// kruununhaka-noisy 0.7 points (turns round on noise).
    public var inLinkUTurnPenalty: Double? = 20
    /// The fastest fix (m/s) at which the vehicle may turn round inside a link: a car turns round
    /// in a street at walking pace (at 6 m/s a 5 m radius is already 0.7 g). Default 6; a fix
    /// without a speed may.
    public var inLinkUTurnSpeed: Double = 6
    /// At or below this speed the vehicle counts as stopped: its matched position does not advance.
    public var stopSpeed: Double = 0.5
    /// A time gap longer than this between fixes restarts the matching (discontinuity).
    public var maximumTimeGap: Double = 5
    /// Fastest plausible vehicle speed, used to detect jumps when fixes carry no speed.
    public var maximumPlausibleSpeed: Double = 70
    /// States of the previous fix whose normalised log score falls below `−beamWidth` are not
    /// extended (beam pruning; they are e^−beamWidth less likely than the best). A pruned state
    /// loses only its history: every candidate of the next fix is still reached from the states
    /// kept. Default 10 (issue 12; 40 before): on the 20 sample drives the matched positions (lag
    /// 0 and 3) and the replayed frames (default; level 3 with U-turns) are byte-identical from 40
    /// down to 10, and 8 first changes a frame (POSITION on two noisy drives). It cuts matching by
    /// 12 % of its instructions and its p99 per fix by a third, since the dense junctions that make
    /// the tail are where most states fall out of the beam (`Docs/measurements.md`, "Per fix").
    public var beamWidth: Double = 10
    /// Consecutive fixes without any candidate before the vehicle is declared off road.
    public var offRoadAfterMisses: Int = 3
    /// Off the map (``OffMapFilter``): a fix fits "no road here" as well as a road this many σ
    /// away, driven in the fix's heading; 0 turns the filter off. Default 3: with each drive's
    /// longest stretch on one way taken out of the map (`Tools/evaluate_off_map.py`, ten noisy
    /// drives) 50.6 % of the fixes there are declared off road instead of 22.2 %, and 61–96 %
    /// instead of 13–85 % where the nearest road left is 19–142 m away; on the full map every
    /// match of the 36 sample traces is byte-identical. 2.5 declares 60.0 %, but also 0.7 % of
    /// the other fixes of those drives (0.2 % at 3). Where the nearest road is 5–13 m away, as
    /// near as 5 m of GNSS noise puts the fixes of a car on it, nothing tells them apart.
    public var offMapDistance: Double = 3
    /// Off the map: the log odds against switching between on and off the map at one fix, so that
    /// leaving or rejoining the map takes the evidence of a few fixes. Default 10: 6 declares
    /// 52.3 % off the map, and one fix of the GNSS-outlier drives (`Tools/outlier_drives.py`).
    public var offMapSwitchPenalty: Double = 10
    /// The outlier gate, in σ of the fix: a fix farther than this (plus 5 m for the match's own
    /// error) from where the vehicle can be — the last on-road match moved on by the distance the
    /// fix speeds say it drove, along the fix headings (within half that distance, for a turn), or
    /// anywhere within 1.2 times that distance without usable headings — is an outlier (multipath
    /// in a street canyon, a receiver glitch). The matcher coasts over it: the position is the last
    /// column's best state driven on at the fixes' speed, its confidence halved, and the next fix
    /// steps from the fixes before it. 0 turns the gate off. Default 4: Gaussian noise reaches
    /// that far once in 3 000 fixes, and the sample drives' matches are unchanged; with 3 % of
    /// their fixes moved 30–80 m (`Tools/outlier_drives.py`), each such fix had restarted the
    /// matching or drawn it onto a street nearby for several fixes (way correct 96.6 → 92.4 %,
    /// off road 0.9 %; with the gate 96.5 %, none; README, fidelity).
    public var outlierGateSigmas: Double = 4
    /// Outliers in a row the gate coasts over (``outlierGateSigmas``); the next far fix restarts
    /// the matching there (a discontinuity): that many fixes agreeing that the vehicle is
    /// elsewhere mean the match was wrong or the receiver jumped. Default 3: multipath comes in
    /// bursts of a few fixes.
    public var maximumOutliersInARow: Int = 3

    /// Creates the default configuration.
    public init() {}

    /// This configuration with every value brought into a usable range (non-finite or too small
    /// values raised to a small positive floor, at least one candidate, at least one miss), so a
    /// bad setting degrades matching instead of producing NaN scores. The matchers apply it.
    public var sanitised: MatcherConfiguration {
        func floor(_ value: Double, _ minimum: Double) -> Double { value.isFinite ? max(minimum, value) : minimum }
        var c = self
        c.defaultAccuracy = floor(defaultAccuracy, 0.1)
        c.minimumAccuracy = floor(minimumAccuracy, 0.1)
        c.minimumSearchRadius = floor(minimumSearchRadius, 1)
        c.maximumSearchRadius = max(c.minimumSearchRadius, floor(maximumSearchRadius, 1))
        c.maximumCandidates = max(1, maximumCandidates)
        c.headingSpeedThreshold = floor(headingSpeedThreshold, 0)
        c.headingWeight = floor(headingWeight, 0)
        c.standstillHeadingWeight = floor(standstillHeadingWeight, 0)
        c.transitionScale = floor(transitionScale, 0.1)
        c.maximumRouteDistance = floor(maximumRouteDistance, 1)
        c.uTurnPenalty = floor(uTurnPenalty, 0)
        c.inLinkUTurnPenalty = inLinkUTurnPenalty.map { floor($0, 0) }
        c.inLinkUTurnSpeed = inLinkUTurnSpeed.isNaN ? 6 : max(0, inLinkUTurnSpeed)
        c.serviceRoadPenalty = floor(serviceRoadPenalty, 0)
        c.alongTrackDrift = alongTrackDrift.isNaN ? 0.5 : max(0.01, alongTrackDrift)
        c.alongTrackTurnDrift = floor(alongTrackTurnDrift, 0)
        c.alongTrackGate = floor(alongTrackGate, 0.5)
        c.deadReckoningDistanceDrift = floor(deadReckoningDistanceDrift, 0.001)
        c.deadReckoningTimeDrift = floor(deadReckoningTimeDrift, 0.001)
        c.reportedVelocityDistanceDrift = floor(reportedVelocityDistanceDrift, 0.001)
        c.reportedVelocityTimeDrift = floor(reportedVelocityTimeDrift, 0.001)
        c.deadReckoningMinimumAccuracy = floor(deadReckoningMinimumAccuracy, 0.1)
        c.deadReckoningGate = floor(deadReckoningGate, 1)
        c.receiverBiasSigma = receiverBiasSigma.isFinite ? max(0, receiverBiasSigma) : 0
        c.speedLatencySigma = speedLatencySigma.isFinite ? min(2, max(0, speedLatencySigma)) : 0.5
        let latencies = Self.speedLatencyRange
        c.knownSpeedLatency = knownSpeedLatency.flatMap {
            $0.isFinite ? min(latencies.upperBound, max(latencies.lowerBound, $0)) : nil
        }
        c.receiverBiasTime = floor(receiverBiasTime, 0.1)
        c.receiverLaneSigma = receiverLaneSigma.isFinite ? max(0, receiverLaneSigma) : 0
        c.receiverLaneTime = floor(receiverLaneTime, 0.1)
        c.receiverBiasMeasurementSigma = floor(receiverBiasMeasurementSigma, 0.1)
        c.receiverBiasConfidence = receiverBiasConfidence.isFinite ? min(1, max(0, receiverBiasConfidence)) : 1
        c.stopSpeed = floor(stopSpeed, 0)
        c.maximumTimeGap = floor(maximumTimeGap, 0)
        c.maximumPlausibleSpeed = floor(maximumPlausibleSpeed, 1)
        c.beamWidth = floor(beamWidth, 1)
        c.offRoadAfterMisses = max(1, offRoadAfterMisses)
        c.offMapDistance = offMapDistance.isFinite ? max(0, offMapDistance) : 0
        c.offMapSwitchPenalty = floor(offMapSwitchPenalty, 0.1)
        c.outlierGateSigmas = outlierGateSigmas.isFinite ? max(0, outlierGateSigmas) : 0
        c.maximumOutliersInARow = max(0, maximumOutliersInARow)
        return c
    }

    /// The accuracy (1 sigma) used for `horizontalAccuracy`, floored at ``minimumAccuracy``.
    func sigma(for horizontalAccuracy: Double?) -> Double {
        max(minimumAccuracy, horizontalAccuracy ?? defaultAccuracy)
    }

    /// The search radius for a fix of accuracy `sigma`: `max(minimumSearchRadius, 3 sigma)`, capped.
    func searchRadius(sigma: Double) -> Double {
        min(maximumSearchRadius, max(minimumSearchRadius, 3 * sigma))
    }
}
