import Foundation
import GNSS
import RoadMap

/// The baseline matcher: each fix goes to the nearest link within the search radius, driven in
/// the direction that agrees with the fix heading (or the previous direction on the same link).
///
/// No history beyond the previous match and no graph routing: it shows what the HMM of
/// ``OnlineMapMatcher`` buys on parallel roads, bridges and junctions.
public final class NearestRoadMatcher: MapMatcher {
    /// The road graph matched against.
    public let network: any RoadNetwork
    /// The tuning in use (``MatcherConfiguration/sanitised``): search radius, accuracy, heading, jumps.
    public let configuration: MatcherConfiguration

    private let candidateSearch: CandidateSearch
    private let jumpDetector: JumpDetector
    private var lastFix: GNSSFix?
    private var lastState: MatchState = .unknown

    /// Creates a baseline matcher over `network`.
    public init(network: any RoadNetwork, configuration: MatcherConfiguration = .init()) {
        self.network = network
        let configuration = configuration.sanitised
        self.configuration = configuration
        candidateSearch = CandidateSearch(configuration: configuration)
        jumpDetector = JumpDetector(configuration: configuration)
    }

    /// Forgets the previous match.
    public func reset() {
        lastFix = nil
        lastState = .unknown
    }

    /// Matches one fix to the nearest road.
    public func match(_ fix: GNSSFix) throws -> MatchResult {
        try MatchingError.validate(fix)
        guard fix.quality != .noFix else {
            reset()
            return MatchResult(time: fix.time, state: .unknown, discontinuity: false)
        }
        var discontinuity = lastState.position == nil
        if let previous = lastFix, jumpDetector.isBreak(from: previous, to: fix) { discontinuity = true }
        lastFix = fix
        let sigma = configuration.sigma(for: fix.horizontalAccuracy)
        let candidates = try candidateSearch.candidates(for: fix, sigma: sigma, network: network)
        guard !candidates.isEmpty else {
            lastState = .offRoad(point: fix.point)
            return MatchResult(time: fix.time, state: lastState, discontinuity: discontinuity)
        }
        let moving = (fix.speed ?? 0) > configuration.headingSpeedThreshold && fix.heading != nil
        var best = 0
        for j in candidates.indices where isBetter(candidates[j], than: candidates[best], moving: moving) { best = j }
        // Confidence: the chosen candidate's share of the emission mass of all candidates.
        var total = 0.0
        for candidate in candidates { total += exp(candidate.emission - candidates[best].emission) }
        let position = candidates[best].position(confidence: 1 / total)
        lastState = .onRoad(position)
        return MatchResult(time: fix.time, state: lastState, discontinuity: discontinuity)
    }

    /// Nearest first; between the two directions of one link, the heading decides when moving,
    /// else the previous direction on that link is kept.
    private func isBetter(_ a: MatchCandidate, than b: MatchCandidate, moving: Bool) -> Bool {
        if a.link.link != b.link.link { return a.distance < b.distance }
        if moving { return a.emission > b.emission }
        return lastState.position?.link == a.link
    }
}
