import Foundation
import GNSS
import RoadMap

/// An online hidden-Markov-model map matcher in the spirit of Newson & Krumm (2009).
///
/// Hidden states are candidate positions on directed links within a search radius of each fix.
/// Emission: a Gaussian on the distance from the fix to the link (σ from the fix's accuracy) plus
/// agreement of the fix heading with the driving direction when moving. Transition:
/// `exp(−|route distance − expected distance| / β)`, the route distance found on the graph by a
/// bounded Dijkstra search that respects oneway and turn restrictions, the expected distance from
/// the fix speeds (or the great-circle distance when speed is unknown) — so a stopped vehicle
/// stays put and a parallel road is reachable only through its junctions.
///
/// Each state also carries an along-track estimate (``AlongTrackEstimate``): dead reckoning from
/// the fix speeds fused with the fix's projection, a Kalman filter along the road. Routes are
/// measured from that estimate, and the matched position stands at it — on the next link when the
/// estimate has passed the junction the fix still lags behind, on the previous one when the fix
/// runs ahead. On short links (city ways split at every crossing) this is what decides the link.
///
/// Decoding is causal: each fix extends the Viterbi column of the previous one (normalised log
/// scores; the scores summarise the whole history, so memory is one column) and the result is the
/// state ending the best path. Its confidence is the filtered posterior of that state.
/// ``FixedLagMatcher`` reads the same best path a few fixes later instead (for recordings).
/// Deterministic: time comes from the fixes only.
public final class OnlineMapMatcher {
    /// The road graph matched against.
    public let network: any RoadNetwork
    /// The tuning in use (``MatcherConfiguration/sanitised``).
    public let configuration: MatcherConfiguration

    private let candidateSearch: CandidateSearch
    private var routeSearch = RouteDistanceSearch()
    private let jumpDetector: JumpDetector

    // The current HMM column: states, normalised Viterbi and filter log scores, and its fix.
    private var residuals = ResidualAccuracy()
    /// The receiver's own accuracy, from the received fixes (``residuals`` learns the fused
    /// positions' when dead reckoning is fused): what the outlier gate judges a fix by.
    private var fixResiduals = ResidualAccuracy()
    private var offMap: OffMapFilter
    private var deadReckoning = DeadReckoningFilter()
    private var column: [MatchCandidate] = []
    private var viterbi: [Double] = []
    private var filter: [Double] = []
    private var estimates: [AlongTrackEstimate] = []
    private var columnFix: GNSSFix?

    // Buffers of the next column, swapped in after each step.
    private var nextViterbi: [Double] = []
    private var nextFilter: [Double] = []
    private var nextEstimates: [AlongTrackEstimate] = []
    private var routeDistances: [Double] = []
    private var nextBack: [Int] = []

    /// The last columns with their back-pointers, kept only for ``FixedLagMatcher`` (capacity 0 otherwise).
    var smoothingWindow = SmoothingWindow()

    private var lastFix: GNSSFix?
    /// The receiver's slowly varying error (``ReceiverBias``), and the point of the fix being
    /// matched before it was taken off.
    private var bias = ReceiverBias()
    private var uncorrectedPoint: GeoPoint?
    private var lastState: MatchState = .unknown
    private var misses = 0
    /// Fixes taken for outliers in a row (``MatcherConfiguration/outlierGateSigmas``).
    private var outliersInARow = 0
    /// Fixes taken for outliers (``MatcherConfiguration/outlierGateSigmas``) and coasted over, since
    /// the matcher was created.
    public private(set) var outliers = 0
    private var needsDiscontinuity = true
    /// Whether a fix with a usable heading (moving faster than
    /// ``MatcherConfiguration/headingSpeedThreshold``) has come since the column started: until
    /// then only a heading reported at standstill (``MatcherConfiguration/standstillHeadingWeight``)
    /// tells the two driving directions of a road apart, and without one the first output is a
    /// guess.
    private var directionSettled = false
    /// The fix of the last on-road match (for the leap check).
    private var lastPositionFix: GNSSFix?

    /// Fixes declared off road because the roads near them explain them worse than no road
    /// (``OffMapFilter``, ``MatcherConfiguration/offMapDistance``), since the matcher was created.
    public private(set) var offMapFixes = 0

    /// Fixes the dead reckoning fused with them coasted over: one far beyond its prediction, an
    /// outlier the outlier gate let through (``DeadReckoningFilter``), since the matcher was created.
    public var deadReckoningFixesCoasted: Int { deadReckoning.fixesCoasted }

    /// Times the fixes disagreed with the dead reckoning fused with them and the fused track started
    /// again at the fix: a receiver jump, a course that is wrong, a vehicle leaving the road
    /// sideways (``DeadReckoningFilter``), since the matcher was created.
    public var deadReckoningRestarts: Int { deadReckoning.disagreements }

    /// Steps of dead reckoning taken by the velocity accuracy the fixes reported (gpsd's `eps` and
    /// `epd`, ``MatcherConfiguration/reportedVelocityDistanceDrift``) and by the configured drifts,
    /// since the matcher was created: whether a receiver's velocity accuracy is in use.
    public var deadReckoningSteps: (byReportedVelocity: Int, byConfiguredDrift: Int) { deadReckoning.steps }

    /// On-road matches that leapt from the previous one (``JumpDetector/isLeap(from:at:to:at:network:)``)
    /// and were output as a discontinuity, since the matcher was created.
    public private(set) var leaps = 0

    /// Creates a matcher over `network`.
    public init(network: any RoadNetwork, configuration: MatcherConfiguration = .init()) {
        self.network = network
        let configuration = configuration.sanitised
        self.configuration = configuration
        candidateSearch = CandidateSearch(configuration: configuration)
        jumpDetector = JumpDetector(configuration: configuration)
        offMap = OffMapFilter(configuration)
        routeSearch.uTurnPenalty = configuration.uTurnPenalty
        if let known = configuration.knownSpeedLatency {
            deadReckoning.speedLatency = SpeedLatency(known: known)
        } else if configuration.estimatesSpeedLatency, configuration.fusesDeadReckoning {
            deadReckoning.speedLatency = SpeedLatency(sigma: configuration.speedLatencySigma)
        }
    }

    /// The states of the current fix with their filtered posterior probabilities as confidence,
    /// most probable first (ties: smaller directed link): what the matcher still considers
    /// possible, for a POSITION with several candidates. Empty before a fix and after a reset.
    /// Read-only: it does not change the matching.
    public var candidatePositions: [MatchedPosition] {
        guard filter.count == column.count else { return [] }
        return column.indices.map { column[$0].position(confidence: exp(filter[$0])) }
            .sorted { ($0.confidence, $1.link) > ($1.confidence, $0.link) }
    }

    /// What ``MatcherConfiguration/estimatesReceiverBias`` takes off the fixes now, metres east
    /// and north (``ReceiverBias``); `nil` when the estimate is off.
    public var receiverBiasCorrection: (east: Double, north: Double)? {
        configuration.estimatesReceiverBias ? bias.correction : nil
    }

    /// How late the fixes' speeds are estimated to be, seconds, and how much of it is taken off them
    /// (``MatcherConfiguration/estimatesSpeedLatency``, ``SpeedLatency``; a
    /// ``MatcherConfiguration/knownSpeedLatency`` is both); `nil` when neither is set.
    public var speedLatency: (estimate: Double, applied: Double)? {
        deadReckoning.speedLatency.map { ($0.estimate, $0.appliedLatency) }
    }

    /// Forgets everything (but how late the speeds are, a property of the installation): the next
    /// fix is matched as the first one.
    public func reset() {
        clearColumn()
        residuals = ResidualAccuracy()
        fixResiduals = ResidualAccuracy()
        deadReckoning.reset()
        bias = ReceiverBias()
        offMap = OffMapFilter(configuration)
        routeSearch.removeAll()
        lastFix = nil
        lastState = .unknown
        misses = 0
        outliersInARow = 0
        needsDiscontinuity = true
        directionSettled = false
    }

    /// Matches one fix, given in time order.
    ///
    /// - Throws: ``MatchingError`` for a fix with non-finite or out-of-range fields; errors of the
    ///   road network (a tile that cannot be read) are passed through.
    public func match(_ receivedFix: GNSSFix) throws -> MatchResult {
        try MatchingError.validate(receivedFix)
        var fix = receivedFix
        if deadReckoning.speedLatency != nil {
            fix.speed = deadReckoning.speedLatency?.speedAtFixTime(fix, maximumGap: configuration.maximumTimeGap)
        }
        if fix.quality == .noFix {
            reset()
            return MatchResult(time: fix.time, state: .unknown, discontinuity: false)
        }
        var sigma = configuration.sigma(for: fix.horizontalAccuracy ?? fixResiduals.accuracy(configuration))
        let isFar = isFarFromTheMatch(fix, sigma: sigma)
        if isFar, outliersInARow < configuration.maximumOutliersInARow {
            // Neither the jump detector, the HMM nor the gate's reference sees the fix: the next
            // one is compared with, and steps from, the fixes before it.
            outliersInARow += 1
            outliers += 1
            return MatchResult(time: fix.time, state: .onRoad(try coastedPosition(to: fix)), discontinuity: false)
        }
        outliersInARow = 0
        var restarted = false
        // A break: as many far fixes in a row as the gate passes over (the vehicle is where they
        // are: the match was wrong, or the receiver jumped; no route from the match explains it),
        // or a jump the detector sees.
        if isFar || lastFix.map({ jumpDetector.isBreak(from: $0, to: fix) }) == true {
            clearColumn()
            deadReckoning.reset(scatter: false)
            restarted = true
        }
        if lastFix == nil { restarted = true }
        lastFix = fix
        if configuration.fusesDeadReckoning {
            // From here on the fix stands at the fused position (DeadReckoningFilter). Its
            // accuracy is learnt from how far the fused positions lie from their matches, and no
            // worse than the receiver's when it reports one: a fused position is better than its
            // fix, and a car that drives off the road (residuals growing) is still judged by the
            // receiver's accuracy, so it is off the map as soon as the fix would be.
            let fused = deadReckoning.update(fix, configuration)
            fix.latitude = fused.point.latitude
            fix.longitude = fused.point.longitude
            fix.horizontalAccuracy = Self.smaller(fix.horizontalAccuracy, residuals.accuracy(configuration))
            sigma = configuration.sigma(for: fix.horizontalAccuracy)
        }
        if configuration.estimatesReceiverBias {
            bias.predict(to: fix.time, configuration)
            uncorrectedPoint = fix.point
            let corrected = bias.corrected(fix.point)
            fix.latitude = corrected.latitude
            fix.longitude = corrected.longitude
        }

        if let held = heldWhileStopped(fix, sigma: sigma) {
            return try finish(fix, state: .onRoad(held), restarted: restarted)
        }
        let candidates = try candidateSearch.candidates(
            for: fix, sigma: sigma, network: network, directionSettled: directionSettled)
        if candidates.isEmpty {
            return try finish(fix, state: missedFix(fix), restarted: restarted)
        }
        misses = 0
        if configuration.offMapDistance > 0 {
            // Off the map (OffMapFilter): the roads near the fix explain it worse than no road.
            var best = -Double.infinity
            for candidate in candidates where candidate.emission > best { best = candidate.emission }
            if offMap.update(bestEmission: best, configuration) {
                clearColumn()
                offMapFixes += 1
                return try finish(fix, state: .offRoad(point: fix.point), restarted: restarted)
            }
        }
        guard columnFix != nil, !column.isEmpty else {
            startColumn(candidates, fix: fix, sigma: sigma)
            return try finish(fix, state: .onRoad(try chosenPosition()), restarted: restarted)
        }
        if try !advanceColumn(to: candidates, fix: fix, sigma: sigma) {
            // Every candidate is unreachable from every state of the previous fix: the vehicle
            // left the map's roads. Start over from here; the next match is a recovery.
            startColumn(candidates, fix: fix, sigma: sigma)
            needsDiscontinuity = true
            return try finish(fix, state: .offRoad(point: fix.point), restarted: restarted)
        }
        return try finish(fix, state: .onRoad(try chosenPosition()), restarted: restarted)
    }

    // MARK: - Steps

    private func finish(_ fix: GNSSFix, state: MatchState, restarted: Bool) throws -> MatchResult {
        var discontinuity = restarted
        let settledBefore = directionSettled
        if hasUsableHeading(fix) { directionSettled = true }
        if case .onRoad(let position) = state {
            discontinuity = discontinuity || needsDiscontinuity
            // A stopped vehicle's heading says nothing, so the direction of a match made before it
            // moved was a guess: when the first moving fix turns it round, the earlier position is
            // not a place the vehicle came from, and the horizon starts over instead of searching
            // its tree (built in the guessed direction) for the new link.
            if !settledBefore, let previous = lastState.position, previous.link == position.link.reversed {
                discontinuity = true
            }
            if !discontinuity, let previous = lastState.position, let previousFix = lastPositionFix,
                try jumpDetector.isLeap(from: previous, at: previousFix, to: position, at: fix, network: network)
            {
                discontinuity = true
                leaps += 1
            }
            lastPositionFix = fix
            needsDiscontinuity = false
            if configuration.estimatesReceiverBias, let uncorrectedPoint,
                position.confidence >= configuration.receiverBiasConfidence
            {
                try measureBias(from: uncorrectedPoint, at: position)
            }
            if fix.horizontalAccuracy == nil || configuration.fusesDeadReckoning {
                residuals.add(fix.point.distance(to: position.point), configuration)
            }
            // `lastFix` is the fix as received (the fused one is `fix`).
            if let lastFix, lastFix.horizontalAccuracy == nil {
                fixResiduals.add(lastFix.point.distance(to: position.point), configuration)
            }
        } else {
            needsDiscontinuity = true
        }
        lastState = state
        return MatchResult(time: fix.time, state: state, discontinuity: discontinuity)
    }

    /// Fuses into ``bias`` how far right of its road `point` lies from `position`.
    private func measureBias(from point: GeoPoint, at position: MatchedPosition) throws {
        let link = try network.link(position.link.link)
        let forward = position.link.direction == .forward
        guard
            let (_, forwardBearing) = link.geometry.point(
                atOffset: forward ? position.offset : link.length - position.offset)
        else { return }
        let bearing = forward ? forwardBearing : (forwardBearing + 180).truncatingRemainder(dividingBy: 360)
        let (x, y) = LocalProjection(origin: position.point).project(point)
        let angle = bearing * .pi / 180
        bias.update(right: x * cos(angle) - y * sin(angle), bearing: bearing, configuration)
    }

    /// Whether `fix` lies outside the outlier gate: farther than
    /// ``MatcherConfiguration/outlierGateSigmas`` σ (and 5 m for the match's own error) from where
    /// the vehicle can be, the last match moved on by the distance the fix speeds say it drove
    /// since, along the fix headings when both are usable (within half that distance, for a turn),
    /// anywhere within 1.2 times it otherwise. Never after a time gap, or off road.
    private func isFarFromTheMatch(_ fix: GNSSFix, sigma: Double) -> Bool {
        guard configuration.outlierGateSigmas > 0, !column.isEmpty, let last = lastState.position,
            let reference = lastPositionFix
        else { return false }
        let dt = fix.time - reference.time
        guard dt > 0, dt <= configuration.maximumTimeGap else { return false }
        let driven = Self.distanceDriven(from: reference, to: fix, in: dt) ?? configuration.maximumPlausibleSpeed * dt
        let noise = configuration.outlierGateSigmas * sigma + 5
        let plane = LocalProjection(origin: last.point)
        let (x, y) = plane.project(fix.point)
        let miss: Double
        if hasUsableHeading(reference), hasUsableHeading(fix), let h0 = reference.heading, let h1 = fix.heading {
            // The mean of the two headings, the chord of a steady turn.
            let bearing = (h0 + signedTurnAngle(from: h0, to: h1) / 2) * .pi / 180
            miss = hypot(x - driven * sin(bearing), y - driven * cos(bearing)) - 0.5 * driven
        } else {
            miss = hypot(x, y) - 1.2 * driven
        }
        return miss > noise
    }

    /// The position the last column's best state has reached by `fix`'s time, driving on at the
    /// speed of the fixes (placed as ``chosenPosition()`` places it, walking on through the
    /// junctions the column holds), its confidence halved for each outlier in a row: what an
    /// outlier is matched to. Where the vehicle stands still, or the speeds are unknown, the last
    /// match itself.
    private func coastedPosition(to fix: GNSSFix) throws -> MatchedPosition {
        var estimates = self.estimates
        if let columnFix, fix.time > columnFix.time,
            let driven = Self.distanceDriven(from: columnFix, to: fix, in: fix.time - columnFix.time)
        {
            for k in estimates.indices { estimates[k].offset += driven }
        }
        let placement = MatchedPositionPlacement(column: column, viterbi: viterbi, filter: filter, estimates: estimates)
        var position = try placement.position(routeSearch: &routeSearch, network: network)
        position.confidence *= pow(0.5, Double(outliersInARow))
        return position
    }

    /// The distance the vehicle drove in `dt` seconds from `previous` to `fix` by their speeds (the
    /// mean of the two), `nil` when either has none.
    private static func distanceDriven(from previous: GNSSFix, to fix: GNSSFix, in dt: Double) -> Double? {
        guard let v0 = previous.speed, let v1 = fix.speed else { return nil }
        return 0.5 * (v0 + v1) * dt
    }

    /// A fix with no candidate: hold the last match for a few fixes (an outlier), then go off road.
    private func missedFix(_ fix: GNSSFix) -> MatchState {
        misses += 1
        if misses < configuration.offRoadAfterMisses, !column.isEmpty, case .onRoad(var held) = lastState {
            held.confidence *= 0.5
            return .onRoad(held)
        }
        clearColumn()
        if configuration.offMapDistance > 0 { offMap.leave(configuration) }
        return .offRoad(point: fix.point)
    }

    private func clearColumn() {
        directionSettled = false
        column.removeAll(keepingCapacity: true)
        viterbi.removeAll(keepingCapacity: true)
        filter.removeAll(keepingCapacity: true)
        estimates.removeAll(keepingCapacity: true)
        columnFix = nil
        smoothingWindow.removeAll()
    }

    private func startColumn(_ candidates: [MatchCandidate], fix: GNSSFix, sigma: Double) {
        column = candidates
        estimates.removeAll(keepingCapacity: true)
        for candidate in candidates { estimates.append(.measured(candidate, sigma: sigma)) }
        viterbi.removeAll(keepingCapacity: true)
        for candidate in candidates { viterbi.append(candidate.emission) }
        normalise(&viterbi)
        filter.removeAll(keepingCapacity: true)
        filter.append(contentsOf: viterbi)
        normaliseAsProbabilities(&filter)
        columnFix = fix
        smoothingWindow.append(states: column, viterbi: viterbi, filter: filter, estimates: estimates, back: [])
    }

    /// One Viterbi and forward-filter step. Returns false when no transition is possible.
    private func advanceColumn(to candidates: [MatchCandidate], fix: GNSSFix, sigma: Double) throws -> Bool {
        guard let previousFix = columnFix else { return false }
        let dt = max(0, fix.time - previousFix.time)
        let greatCircle = previousFix.point.distance(to: fix.point)
        let expected: Double
        // The fixes' own turn over the step, signed (right positive).
        let turn = headingChange(from: previousFix, to: fix)
        // Dead reckoning is only as good as the speeds: without them the along-track estimate is
        // the projection alone.
        var drift = Double.infinity
        if let driven = Self.distanceDriven(from: previousFix, to: fix, in: dt) {
            expected = driven
            drift = configuration.alongTrackDrift * max(dt, 0.1)
            if let turn {
                let turning = configuration.alongTrackTurnDrift * abs(turn) / 90
                drift = (drift * drift + turning * turning).squareRoot()
            }
        } else {
            expected = greatCircle
        }
        let limit = min(configuration.maximumRouteDistance, 2 * max(expected, greatCircle) + 100)
        let backwardTolerance = 3 * sigma
        routeSearch.backwardTolerance = backwardTolerance
        let beta = configuration.transitionScale, beamWidth = configuration.beamWidth
        let gate = configuration.alongTrackGate
        // A faster fix reaches the reversed link only through a node (and the matcher spares
        // the extra transitions).
        let inLinkUTurnPenalty =
            (fix.speed ?? 0) <= configuration.inLinkUTurnSpeed ? configuration.inLinkUTurnPenalty : nil
        // When the fixes turned, only a candidate whose road turns the same way is judged against
        // the step's course.
        let turned =
            configuration.expectsCourseThroughNode && expected > 0
            ? turn.flatMap { abs($0) >= Self.leastTurnThroughNode ? $0 : nil } : nil

        // The loops below work on local arrays (the buffers moved out of the matcher and back):
        // an element of a class's array property costs a run-time exclusivity check per access.
        let viterbi = self.viterbi, filter = self.filter, estimates = self.estimates
        var nextViterbi = Self.take(&self.nextViterbi), nextFilter = Self.take(&self.nextFilter)
        var nextEstimates = Self.take(&self.nextEstimates), nextBack = Self.take(&self.nextBack)
        var routeDistances = Self.take(&self.routeDistances)
        nextViterbi.removeAll(keepingCapacity: true)
        nextViterbi.append(contentsOf: repeatElement(-Double.infinity, count: candidates.count))
        nextFilter.removeAll(keepingCapacity: true)
        nextFilter.append(contentsOf: repeatElement(0, count: candidates.count))
        nextEstimates.removeAll(keepingCapacity: true)
        for candidate in candidates { nextEstimates.append(.measured(candidate, sigma: sigma)) }
        nextBack.removeAll(keepingCapacity: true)
        nextBack.append(contentsOf: repeatElement(-1, count: candidates.count))
        for (i, source) in column.enumerated() where viterbi[i] > -beamWidth || filter[i] > -beamWidth {
            try routeSearch.distances(from: source, to: candidates, limit: limit, in: network, into: &routeDistances)
            // The route is measured from the state's along-track estimate, not from its fix's
            // projection, so a state keeps the history of the distance it has driven.
            let shift = estimates[i].offset - source.offset
            let reversed = inLinkUTurnPenalty == nil ? nil : source.link.reversed
            for j in candidates.indices where routeDistances[j].isFinite || candidates[j].link == reversed {
                let sameLink =
                    candidates[j].link == source.link && candidates[j].offset - source.offset >= -backwardTolerance
                var driven = (sameLink ? candidates[j].offset - source.offset : routeDistances[j]) - shift
                // Turning round inside the link (a U-turn where the street allows it, not at a
                // node): back to where the estimate put the vehicle, plus the U-turn's charge.
                var turnsInLink = false
                if candidates[j].link == reversed, let inLinkUTurnPenalty {
                    let inLink =
                        abs(source.length - candidates[j].offset - estimates[i].offset) + inLinkUTurnPenalty
                    if !(driven <= inLink) {
                        driven = inLink
                        turnsInLink = true
                    }
                }
                guard driven.isFinite else { continue }
                var transition = -abs(driven - expected) / beta
                if let turned, !sameLink, !turnsInLink {
                    transition += courseCredit(
                        from: source, to: candidates[j], stepLength: expected, fix: fix, turned: turned)
                }
                if viterbi[i] + transition > nextViterbi[j] {
                    nextViterbi[j] = viterbi[i] + transition
                    nextBack[j] = i
                    nextEstimates[j] = estimates[i].advanced(
                        from: source, to: candidates[j], routeDistance: routeDistances[j], expectedDistance: expected,
                        processVariance: !turnsInLink && drivesAlong(fix, candidates[j]) ? drift * drift : .infinity,
                        sigma: sigma, gate: gate)
                }
                nextFilter[j] += exp(filter[i] + transition)
            }
        }
        self.routeDistances = routeDistances
        defer {
            // The buffers go back for the next column (in the guard's case with nothing swapped).
            self.nextViterbi = nextViterbi
            self.nextFilter = nextFilter
            self.nextEstimates = nextEstimates
            self.nextBack = nextBack
        }
        guard nextViterbi.contains(where: { $0 > -.infinity }) else { return false }
        for j in candidates.indices {
            nextViterbi[j] += candidates[j].emission
            nextFilter[j] = nextFilter[j] > 0 ? log(nextFilter[j]) + candidates[j].emission : -.infinity
        }
        if !nextFilter.contains(where: { $0 > -.infinity }) { nextFilter = nextViterbi }
        normalise(&nextViterbi)
        normaliseAsProbabilities(&nextFilter)
        swap(&self.viterbi, &nextViterbi)
        swap(&self.filter, &nextFilter)
        swap(&self.estimates, &nextEstimates)
        column = candidates
        columnFix = fix
        smoothingWindow.append(
            states: column, viterbi: self.viterbi, filter: self.filter, estimates: self.estimates, back: nextBack)
        return true
    }

    /// The contents of `buffer`, leaving it empty (a buffer moved out for a loop and back).
    private static func take<Element>(_ buffer: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &buffer)
        return taken
    }

    /// The heading change from one fix to the next, degrees in `-180...180` (right positive), when
    /// both are fast enough for their headings to mean the direction of travel.
    private func headingChange(from previous: GNSSFix, to fix: GNSSFix) -> Double? {
        guard hasUsableHeading(previous), hasUsableHeading(fix), let h0 = previous.heading, let h1 = fix.heading
        else { return nil }
        return signedTurnAngle(from: h0, to: h1)
    }

    /// The smaller of two accuracies, either of which may be unknown.
    private static func smaller(_ a: Double?, _ b: Double?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Whether the fix is fast enough for its heading to mean the direction of travel.
    private func hasUsableHeading(_ fix: GNSSFix) -> Bool {
        guard let speed = fix.speed, fix.heading != nil else { return false }
        return speed > configuration.headingSpeedThreshold
    }

    /// Whether the fix's motion runs along the candidate's link (heading within 45° of its driving
    /// direction, or no usable heading): only then does the distance driven, from the speeds, tell
    /// how far along the link the vehicle moved. A car joining the road across a car park moves
    /// towards the road, not along it.
    private func drivesAlong(_ fix: GNSSFix, _ candidate: MatchCandidate) -> Bool {
        guard let speed = fix.speed, speed > configuration.headingSpeedThreshold, let heading = fix.heading else {
            return true
        }
        return cos((heading - candidate.bearing) * .pi / 180) >= cos(Double.pi / 4)
    }

    /// The end of the best path, placed at its along-track estimate (see ``MatchedPositionPlacement``).
    private func chosenPosition() throws -> MatchedPosition {
        let placement = MatchedPositionPlacement(column: column, viterbi: viterbi, filter: filter, estimates: estimates)
        return try placement.position(routeSearch: &routeSearch, network: network)
    }

    /// State `state` of the smoothing window's column `index`, placed at `estimate` (its smoothed
    /// along-track estimate) as ``chosenPosition()`` places the best state at its filtered one.
    func smoothedPosition(column index: Int, state: Int, estimate: AlongTrackEstimate) throws -> MatchedPosition {
        let kept = smoothingWindow.columns[index]
        var estimates = kept.estimates
        estimates[state] = estimate
        let placement = MatchedPositionPlacement(
            column: kept.states, viterbi: kept.viterbi, filter: kept.filter, estimates: estimates, state: state)
        return try placement.position(routeSearch: &routeSearch, network: network)
    }

    /// While the vehicle stands still (speed at most ``MatcherConfiguration/stopSpeed``) near its
    /// last match, the match does not move: the fix is not fed to the HMM, so GNSS noise at a
    /// traffic light cannot drift the position along the link or onto the crossing road. Only the
    /// time and position of the column's fix follow, so the next moving fix expects the distance
    /// driven since the stop, not since the last moving fix.
    private func heldWhileStopped(_ fix: GNSSFix, sigma: Double) -> MatchedPosition? {
        guard let speed = fix.speed, speed <= configuration.stopSpeed, !column.isEmpty,
            let held = lastState.position,
            held.point.distance(to: fix.point) <= configuration.searchRadius(sigma: sigma)
        else { return nil }
        columnFix = fix
        misses = 0
        return held
    }

    /// Shifts log scores so the largest is 0.
    private func normalise(_ scores: inout [Double]) {
        guard let top = scores.max(), top.isFinite else { return }
        for k in scores.indices { scores[k] -= top }
    }

    /// Turns log scores into log probabilities (log-sum-exp = 0).
    private func normaliseAsProbabilities(_ scores: inout [Double]) {
        normalise(&scores)
        var total = 0.0
        for score in scores { total += exp(score) }
        let logTotal = log(total)
        for k in scores.indices { scores[k] -= logTotal }
    }
}

extension GNSSFix {
    /// The fix's position.
    var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}
