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

    /// Matches `fix`, updates the horizon and hands both to the provider. A fix the matcher
    /// rejects is counted and skipped; map read errors are thrown.
    @discardableResult
    public func process(_ fix: GNSSFix) throws -> (match: MatchResult, events: [HorizonEvent])? {
        let match: MatchResult
        do {
            match = try matcher.match(fix)
        } catch is MatchingError {
            rejectedFixes += 1
            return nil
        }
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
        return (match, events)
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
