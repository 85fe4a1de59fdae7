import GNSS
import Horizon
import RoadMap

/// The whole per-fix chain of the product: map matching → horizon engine → ADASIS provider.
///
/// `process(_:)` takes each GNSS fix as it arrives; `tick(at:)` is called every
/// ``ProviderConfiguration/tickInterval`` seconds and returns the frames to send. The replay
/// command drives it from a recorded trace on a simulated clock, the daemon from gpsd on the
/// real one; both get the same frames for the same fixes and tick times.
public final class HorizonPipeline {
    /// The map matcher.
    public let matcher: any MapMatcher
    /// The horizon engine.
    public let engine: HorizonEngine
    /// The ADASIS provider.
    public let provider: ADASISProvider
    /// The last match result, as the horizon placed it: on the main path while the matcher is
    /// unsure at a narrow fork (``HorizonEngine/vehiclePosition``), else the matcher's.
    public private(set) var lastMatch: MatchResult?
    /// Fixes rejected by the matcher (invalid fields), counted.
    public private(set) var rejectedFixes = 0
    /// The fix the matcher matched last, with its result as the matcher gave it (before the
    /// horizon placed it): what a pipeline that takes the matcher over builds its horizon from.
    private var matcherLast: (fix: GNSSFix, match: MatchResult)?
    /// The time of the newest fix handed to the matcher, matched or rejected.
    private var matcherTime: Double?

    /// Creates a pipeline on `network`. The provider's road-object subscription
    /// (``ProviderConfiguration/roadObjectTypes``) is the engine's too.
    ///
    /// Without a `matcher`, an ``OnlineMapMatcher`` with `matching`'s settings matches the fixes.
    public init(
        network: any RoadNetwork, matcher: (any MapMatcher)? = nil,
        matching: MatcherConfiguration = MatcherConfiguration(),
        horizon: HorizonConfiguration = HorizonConfiguration(),
        provider: ProviderConfiguration = ProviderConfiguration()
    ) throws {
        self.matcher = matcher ?? OnlineMapMatcher(network: network, configuration: matching)
        var horizon = horizon
        horizon.roadObjectTypes = provider.roadObjectTypes
        engine = try HorizonEngine(network: network, configuration: horizon)
        self.provider = ADASISProvider(configuration: provider, network: network)
    }

    /// Creates a pipeline on `network` that takes over `previous`'s matcher: its history (the
    /// road it is on, dead reckoning, what it learnt of the receiver) goes on, while the horizon
    /// engine and the provider are new. For a change that keeps the roads (new road objects,
    /// traffic, settings other than the matcher's); ``resume(at:)`` then builds the horizon
    /// from the matcher's last match. A new matcher would start over, and be on the wrong road
    /// or behind for the first fixes, as after a cold start.
    public convenience init(
        network: any RoadNetwork, continuingMatchingOf previous: HorizonPipeline,
        horizon: HorizonConfiguration = HorizonConfiguration(),
        provider: ProviderConfiguration = ProviderConfiguration()
    ) throws {
        try self.init(network: network, matcher: previous.matcher, horizon: horizon, provider: provider)
        matcherLast = previous.matcherLast
        matcherTime = previous.matcherTime
    }

    /// The horizon at `fix`, the newest fix, for a pipeline that has just been made: when its
    /// matcher (taken over `continuingMatchingOf` another pipeline) has had that fix already, the
    /// horizon is built from the matcher's last match (of that fix, or of the one before when it
    /// rejected that one), for a matcher that took a fix twice would see no time pass and lose its
    /// dead reckoning, or count a rejection twice; otherwise `fix` is processed. The match the
    /// horizon was built from (`nil` when there is none); map read errors are thrown.
    @discardableResult
    public func resume(at fix: GNSSFix) throws -> MatchResult? {
        if let matcherTime, fix.time <= matcherTime {
            guard let (matched, match) = matcherLast else { return nil }
            if lastMatch == nil { try advanceHorizon(fix: matched, match: match) }
            return match
        }
        return try process(fix)?.match
    }

    /// Matches `fix`, updates the horizon and hands both to the provider. A fix the matcher
    /// rejects is counted and skipped; map read errors are thrown.
    @discardableResult
    public func process(_ fix: GNSSFix) throws -> (match: MatchResult, events: [HorizonEvent])? {
        let match: MatchResult
        matcherTime = fix.time
        do {
            match = try matcher.match(fix)
        } catch is MatchingError {
            rejectedFixes += 1
            return nil
        }
        matcherLast = (fix, match)
        return (match, try advanceHorizon(fix: fix, match: match))
    }

    /// The horizon's half of ``process(_:)``: the engine and the provider take `match` of `fix`.
    @discardableResult
    private func advanceHorizon(fix: GNSSFix, match: MatchResult) throws -> [HorizonEvent] {
        // The engine then holds the only copy of its tree and grows its paths in place.
        provider.releaseTree()
        let online = matcher as? OnlineMapMatcher
        var events: [HorizonEvent] = []
        do {
            events = try engine.update(match, candidates: online?.candidatePositions ?? [])
            if provider.configuration.offsetPolicy == .newPathBeforeWrap, let offset = engine.vehicleOffset,
                offset > provider.configuration.newPathOffset, case .onRoad = match.state
            {
                // Restart the tree at the vehicle: the provider sees a reset and opens a new main path.
                events += try engine.update(MatchResult(time: match.time, state: match.state, discontinuity: true))
            }
        } catch {
            // The provider goes on from the tree as far as the engine got, with what it changed.
            provider.ingest(
                fix: fix, match: match, tree: engine.tree, vehicleOffset: engine.vehicleOffset,
                events: events + engine.eventsOfUpdate, routeActive: engine.route != nil)
            throw error
        }
        // Held on the main path at an unsure fork (UnsureFork): the provider's POSITION is there,
        // and the matched position on the side path becomes one of its alternatives.
        let placed = engine.placed(match)
        lastMatch = placed
        provider.ingest(
            fix: fix, match: placed, tree: engine.tree, vehicleOffset: engine.vehicleOffset,
            events: events, routeActive: engine.route != nil)
        if let online { provider.offerPositionCandidates(online.candidatePositions) }
        return events
    }

    /// The frames to send at `time`.
    public func tick(at time: Double) -> [ProviderFrame] {
        provider.tick(at: time)
    }

    /// Runs a recorded drive on a simulated clock: ticks every ``ProviderConfiguration/tickInterval``
    /// from the first fix to `tail` seconds after the last; each fix is processed before the
    /// first tick at or after its time. Before the fixes at `matcherResets` (indices into `fixes`:
    /// receiver resets) the matcher starts again, so the horizon does too. `frame` receives every
    /// frame in order.
    public func replay(
        _ fixes: [GNSSFix], tail: Double = 1, matcherResets: Set<Int> = [],
        onFix: (GNSSFix, MatchResult, [HorizonEvent]) -> Void = { _, _, _ in },
        frame: (ProviderFrame) throws -> Void
    ) throws {
        guard let first = fixes.first, let last = fixes.last else { return }
        let interval = provider.configuration.tickInterval
        var next = 0
        var tickIndex = 0
        while true {
            let time = first.time + Double(tickIndex) * interval
            if time > last.time + tail + 1e-9 { break }
            while next < fixes.count, fixes[next].time <= time + 1e-9 {
                if matcherResets.contains(next) { matcher.reset() }
                if let (match, events) = try process(fixes[next]) { onFix(fixes[next], match, events) }
                next += 1
            }
            for item in tick(at: time) { try frame(item) }
            tickIndex += 1
        }
    }
}
