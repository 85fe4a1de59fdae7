import ADASISProvider
import GNSS
import Horizon
import RoadMapStore

/// The four stages of one fix as `adasis-bench horizon` times them, each a function the optimizer
/// keeps whole (`@inline(never)`): `Tools/bench --instructions` counts a stage as the inclusive
/// instructions of one of these symbols under callgrind, whatever the compiler inlines inside it
/// or moves between the library's functions. (Counting by library function names moved
/// `releaseTree`, 10 k instructions a fix, between stages and nowhere as unrelated files changed.)
enum FixStages {
    /// Map matching.
    @inline(never)
    static func matching(_ matcher: OnlineMapMatcher, _ fix: GNSSFix) throws -> MatchResult {
        try matcher.match(fix)
    }

    /// The horizon update, as `HorizonPipeline.process` runs it: the provider lets go of the last
    /// tree, so that the engine grows the only copy of its tree.
    @inline(never)
    static func horizonUpdate(
        _ engine: HorizonEngine, _ provider: ADASISProvider, _ match: MatchResult, _ matcher: OnlineMapMatcher
    ) throws -> [HorizonEvent] {
        provider.releaseTree()
        return try engine.update(match, candidates: matcher.candidatePositions)
    }

    /// The provider takes the new tree and the matcher's position candidates.
    @inline(never)
    static func ingest(
        _ provider: ADASISProvider, _ engine: HorizonEngine, _ matcher: OnlineMapMatcher, fix: GNSSFix,
        match: MatchResult, events: [HorizonEvent]
    ) {
        provider.ingest(
            fix: fix, match: engine.placed(match), tree: engine.tree, vehicleOffset: engine.vehicleOffset,
            events: events,
            routeActive: false)
        provider.offerPositionCandidates(matcher.candidatePositions)
    }

    /// The provider's ticks up to the next fix.
    @inline(never)
    static func ticks(
        _ ticks: inout ProviderTicks, _ provider: ADASISProvider, before next: Double, from start: Double,
        frame: (ProviderFrame) -> Void
    ) {
        ticks.run(provider, before: next, from: start, frame: frame)
    }
}

/// How a fix's horizon update changed the tree, counted from its events: for `--fix-costs`, so a
/// slow fix can be told apart by what it did (a new tree, a turn onto a side path, side paths
/// added as the vehicle drove on).
struct TreeChange {
    /// The tree was rebuilt from scratch.
    var resets = 0
    /// A side path became the main path (the vehicle turned onto it), or a new tree got one.
    var promotions = 0
    /// Paths added, and paths removed (detached by a turn, or left behind).
    var pathsAdded = 0
    var pathsRemoved = 0

    /// Counts `events`.
    init(_ events: [HorizonEvent]) {
        for event in events {
            switch event {
            case .reset: resets += 1
            case .mainPathChanged: promotions += 1
            case .pathAdded: pathsAdded += 1
            case .pathRemoved: pathsRemoved += 1
            default: break
            }
        }
    }
}
