import ADASISProvider
import ADASISv2
import ArgumentParser
import DaemonConfiguration
import Foundation
import GNSS
import GNSSSources
import Horizon
import RoadMap
import RoadMapImport
import RoadMapStore

/// `adasis-bench horizon`: per-fix latency of matching + horizon update + encoding, and the bus
/// load of the default message configuration, on the sample drives.
struct HorizonBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "horizon",
        abstract: "Per-fix latency (p50/p99) and frames/s and bus load on the sample drives.")

    @Option(help: "The OSM extract to import for the run (ignored with --map).")
    var pbf: String = "Data/helsinki.osm.pbf"

    @Option(
        name: .customLong("map"),
        help: "An existing map file to run on instead of importing --pbf (e.g. a country-scale map).")
    var mapFile: String?

    @Option(help: "Directory of drives (*.csv).")
    var drives: String = "Data/drives"

    @Option(help: "Message preset for the bus-load figures: default, all or mini.")
    var preset: String = "default"

    @Option(help: "Repetitions of every drive (more samples for the percentiles).")
    var repetitions: Int = 3

    @Option(help: "Deepest side-path level built and sent (levels beyond 2 use level 2's 500 m).")
    var maxLevel: Int = HorizonConfiguration().maximumLevel

    @Flag(help: "Also send paths one level below --max-level, one link long (as HERE does).")
    var oneLinkLevel = false

    @Flag(
        inversion: .prefixedNo,
        help: "Offer legal U-turns at the main path's junctions as side paths with probability 0 (leaves of the tree).")
    var uTurns = BranchProbabilityModel().offersUTurns

    @Flag(help: "With --u-turns, offer them at the side paths' junctions too.")
    var uTurnsOffSidePaths = HorizonConfiguration().uTurnsOffSidePaths

    @Flag(
        inversion: .prefixedNo,
        help:
            "Fuse each fix with dead reckoning from the fix speeds and courses before matching it, as adasis does by default (--no-dead-reckoning: the fixes as received)."
    )
    var deadReckoning = MatcherConfiguration().fusesDeadReckoning

    @Option(help: "Metres the main path grows per fix after a new tree or a turn (0: at once, as before stop 48).")
    var mainPathGrowth = HorizonConfiguration().mainPathGrowthPerUpdate

    @Flag(
        help: """
            Apply the safety-location rules adasis ships, as `adasis run` does by default (danger \
            zones derived from the cameras the rules forbid); without it every safety location is \
            allowed and no danger zone is derived.
            """)
    var shippedSafetyRules = false

    @Flag(
        help: """
            Open the map once for every drive and repetition, so tiles stay cached between drives \
            (default: a freshly opened map per drive run, as a daemon starting that drive has).
            """)
    var keepMapOpen = false

    @Option(
        help: """
            Write the CLOCK_MONOTONIC start and end (seconds) of the slowest 1 % of fixes to this file, one \
            "start end" line each, to keep only their samples of a `perf record -k mono` profile.
            """)
    var tailWindows: String?

    @Option(
        help: """
            Write every fix's thread CPU time per stage to this CSV file (drive, repetition, fix index, \
            matching, horizon, ingest, ticks, prefetch; seconds; then the CLOCK_MONOTONIC start and end; then the tiles read from the file while the fix waited; \
            then what the fix made: the paths of the engine's tree, the frames its ticks released, the ticks that walked the tree, \
            the links placed on paths and how many of those were read and scored anew, and the tree's resets, promotions, \
            paths added and paths removed), to see which fixes make the tail and why.
            """)
    var fixCosts: String?

    @Flag(
        inversion: .prefixedNo,
        help: """
            After each fix, read the tiles around it ahead of need as the daemon does between fixes \
            (`MapFile.prefetch`, at most 4 tiles per fix, same thread); timed apart from the fix.
            """)
    var prefetch = true

    func run() throws {
        let imported = FileManager.default.temporaryDirectory.appendingPathComponent("adasis-bench-h-\(getpid()).map")
            .path
        defer { unlink(imported) }
        let mapPath = mapFile ?? imported
        if mapFile == nil {
            _ = try MapImport.run(
                input: pbf, output: imported, options: RoadGraphOptions(country: try Country(alpha2: "FI")))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: drives).filter { $0.hasSuffix(".csv") }.sorted()
        var matching = Samples(), horizon = Samples(), provider = Samples(), total = Samples()
        var totalCPU = Samples(), prefetching = Samples()
        var tileReadsOnFixes = 0, tileReadsPrefetched = 0
        var costRows: [String] = []
        var parts: [FixCost] = []
        var framesByType: [MessageType: Int] = [:]
        var seconds = 0.0
        var indicesExhausted = 0, droppedByBudget = 0
        var configuration = ProviderConfiguration()
        guard let selection = MessageSelection.Preset(rawValue: preset) else {
            throw ValidationError("--preset: default, all or mini")
        }
        configuration.messages = MessageSelection(preset: selection)
        guard maxLevel >= 0 else { throw ValidationError("--max-level must be 0 or more, got \(maxLevel)") }
        var horizonConfiguration = HorizonConfiguration()
        horizonConfiguration.maximumLevel = maxLevel
        horizonConfiguration.addsOneLinkLevel = oneLinkLevel
        horizonConfiguration.branchModel.offersUTurns = uTurns
        guard uTurns || !uTurnsOffSidePaths else { throw ValidationError("--u-turns-off-side-paths needs --u-turns") }
        horizonConfiguration.uTurnsOffSidePaths = uTurnsOffSidePaths
        guard mainPathGrowth >= 0, mainPathGrowth.isFinite else {
            throw ValidationError("--main-path-growth must be a number of metres ≥ 0, got \(mainPathGrowth)")
        }
        horizonConfiguration.mainPathGrowthPerUpdate = HorizonConfiguration.mainPathGrowth(setting: mainPathGrowth)
        if shippedSafetyRules { horizonConfiguration.safetyLocationRules = try SafetyLocationRules.shippedDefault() }
        // The engine's configuration on a map opened for a run: the shipped rules place a
        // camera by the map's countries and regions.
        func engineConfiguration(on map: MapFile) -> HorizonConfiguration {
            var result = horizonConfiguration
            if shippedSafetyRules { result.places = PlaceCodes(map: map.metadata) }
            return result
        }
        let radius = horizonConfiguration.lookAhead
        configuration.sendRadius = (0...(maxLevel + (oneLinkLevel ? 1 : 0))).map { radius[min($0, radius.count - 1)] }
        var coldStart = Samples()
        for _ in 0..<repetitions {
            for name in names {
                guard let first = try TraceFile(path: "\(drives)/\(name)").fixes.first else { continue }
                coldStart.add(
                    try ColdStart.openAndFirstHorizon(
                        mapPath: mapPath, fix: first, configuration: configuration, horizon: engineConfiguration))
            }
        }
        let openMap = keepMapOpen ? try MapFile(path: mapPath) : nil
        for repetition in 0..<repetitions {
            for name in names {
                let map = try openMap ?? MapFile(path: mapPath)
                let fixes = try TraceFile(path: "\(drives)/\(name)").fixes
                let readsBeforeDrive = map.tileReads, prefetchedBeforeDrive = tileReadsPrefetched
                var matcherConfiguration = MatcherConfiguration()
                matcherConfiguration.fusesDeadReckoning = deadReckoning
                let matcher = OnlineMapMatcher(network: map, configuration: matcherConfiguration)
                let engine = try HorizonEngine(network: map, configuration: engineConfiguration(on: map))
                let adasis = ADASISProvider(configuration: configuration, network: map)
                var ticks = ProviderTicks(interval: configuration.tickInterval)
                let start = fixes[0].time
                for (index, fix) in fixes.enumerated() {
                    let began = MonotonicClock.now()
                    let readsBeforeFix = map.tileReads
                    let (placedBefore, scoredBefore) = (engine.linksPlaced, engine.linksScored)
                    let beganCPU = ThreadClock.now()
                    let match = try matching.time { try FixStages.matching(matcher, fix) }
                    let matched = ThreadClock.now()
                    let events = try horizon.time { try FixStages.horizonUpdate(engine, adasis, match, matcher) }
                    let updated = ThreadClock.now()
                    var ingested = updated
                    let nextFix = index + 1 < fixes.count ? fixes[index + 1].time : fix.time + 1
                    var framesOfFix = 0
                    let walksBefore = adasis.treeWalks
                    provider.time {
                        FixStages.ingest(adasis, engine, matcher, fix: fix, match: match, events: events)
                        ingested = ThreadClock.now()
                        FixStages.ticks(&ticks, adasis, before: nextFix, from: start) { frame in
                            framesByType[frame.message.type, default: 0] += 1
                            framesOfFix += 1
                        }
                    }
                    total.add(MonotonicClock.now() - began)
                    let finished = ThreadClock.now()
                    totalCPU.add(finished - beganCPU)
                    let cost = FixCost(
                        matching: matched - beganCPU, horizon: updated - matched, ingest: ingested - updated,
                        ticks: finished - ingested, start: began, end: MonotonicClock.now())
                    parts.append(cost)
                    let readsBeforePrefetch = map.tileReads
                    let readsWhileWaiting = readsBeforePrefetch - readsBeforeFix
                    // As `RunDaemon` does after each fix, not while the next one waits.
                    let prefetchBegan = ThreadClock.now()
                    if prefetch, fix.quality != .noFix {
                        try map.prefetch(
                            around: GeoPoint(latitude: fix.latitude, longitude: fix.longitude),
                            radius: horizonConfiguration.lookAhead.max() ?? 0)
                    }
                    let prefetched = ThreadClock.now() - prefetchBegan
                    tileReadsPrefetched += map.tileReads - readsBeforePrefetch
                    if prefetch { prefetching.add(prefetched) }
                    if fixCosts != nil {
                        let change = TreeChange(events)
                        costRows.append(
                            [
                                name, "\(repetition)", "\(index)", "\(cost.matching)", "\(cost.horizon)",
                                "\(cost.ingest)", "\(cost.ticks)", "\(prefetched)", String(format: "%.9f", cost.start),
                                String(format: "%.9f", cost.end), "\(readsWhileWaiting)", "\(engine.tree.paths.count)",
                                "\(framesOfFix)", "\(adasis.treeWalks - walksBefore)",
                                "\(engine.linksPlaced - placedBefore)", "\(engine.linksScored - scoredBefore)",
                                "\(change.resets)", "\(change.promotions)", "\(change.pathsAdded)",
                                "\(change.pathsRemoved)",
                            ].joined(separator: ","))
                    }
                }
                seconds += Double(ticks.count) * configuration.tickInterval
                tileReadsOnFixes +=
                    map.tileReads - readsBeforeDrive - (tileReadsPrefetched - prefetchedBeforeDrive)
                indicesExhausted += adasis.counters.pathIndicesExhausted
                droppedByBudget += adasis.counters.framesDroppedByBudget.values.reduce(0, +)
            }
        }
        print("per fix (\(names.count) drives × \(repetitions), release build):")
        print("  map matching:            \(matching.summary(scale: 1e6, unit: "µs"))")
        print("  horizon update:          \(horizon.summary(scale: 1e6, unit: "µs"))")
        print("  provider (1 s of ticks): \(provider.summary(scale: 1e6, unit: "µs"))")
        print("  end to end:              \(total.summary(scale: 1e6, unit: "µs"))")
        print("  end to end, thread CPU:  \(totalCPU.summary(scale: 1e6, unit: "µs"))")
        print("  slowest 1 % by thread CPU: \(FixCost.slowest(parts, share: 0.01))")
        print(
            "  tiles read from the file while a fix waits: \(tileReadsOnFixes); between fixes: \(tileReadsPrefetched)")
        if prefetch {
            print(
                "  prefetch after the fix (not in the figures above, as in the daemon): \(prefetching.summary(scale: 1e6, unit: "µs"))"
            )
        }
        if let fixCosts {
            let header =
                "drive,repetition,fix,matching,horizon,ingest,ticks,prefetch,start,end,tile_reads,paths,frames,walks,links_placed,links_scored,resets,promotions,paths_added,paths_removed\n"
            try (header + costRows.map { $0 + "\n" }.joined()).write(
                toFile: fixCosts, atomically: true, encoding: .utf8)
        }
        if let tailWindows {
            let lines = FixCost.slowestFixes(parts, share: 0.01).map { String(format: "%.9f %.9f\n", $0.start, $0.end) }
            try lines.joined().write(toFile: tailWindows, atomically: true, encoding: .utf8)
        }
        print("open + first horizon, file out of the page cache: \(coldStart.summary(scale: 1000, unit: "ms"))")
        let totalFrames = framesByType.values.reduce(0, +)
        print(
            "frames per second, preset \(preset), max level \(maxLevel)\(oneLinkLevel ? " + one-link level" : "") (\(String(format: "%.0f", seconds)) s of driving):"
        )
        for type in [MessageType.position, .metaData, .segment, .stub, .profileShort, .profileLong] {
            print(
                "  \(String(describing: type).padding(toLength: 13, withPad: " ", startingAt: 0)) \(String(format: "%6.1f", Double(framesByType[type] ?? 0) / seconds))"
            )
        }
        print(
            "  side paths left unsent, every path index in use: \(indicesExhausted); frames dropped by the budget: \(droppedByBudget)"
        )
        print(
            String(format: "peak resident memory of the benchmark process: %.1f MiB", peakResidentMegabytes())
                + " (\(allocatorName()))")
        let rate = Double(totalFrames) / seconds
        // A classic 8-byte data frame with an 11-bit identifier is 111 bits plus up to 24 stuff bits.
        print(
            String(
                format:
                    "  total         %6.1f frames/s → bus load at 500 kbit/s %.2f %% (111 bits/frame) … %.2f %% (135 bits/frame, worst-case stuffing)",
                rate, rate * 111 / 500_000 * 100, rate * 135 / 500_000 * 100))
    }
}

/// Thread CPU time of one fix's stages, seconds.
struct FixCost {
    var matching: Double
    var horizon: Double
    var ingest: Double
    var ticks: Double
    /// CLOCK_MONOTONIC at the fix's start and end, seconds.
    var start: Double
    var end: Double

    var total: Double { matching + horizon + ingest + ticks }

    /// "mean N µs: matching A, horizon update B, provider ingest C, ticks D" over the slowest
    /// `share` of `costs`: where the tail of the per-fix distribution goes.
    static func slowest(_ costs: [FixCost], share: Double) -> String {
        let tail = slowestFixes(costs, share: share)
        let count = tail.count
        func mean(_ part: (FixCost) -> Double) -> String {
            String(format: "%.0f", tail.map(part).reduce(0, +) / Double(tail.count) * 1e6)
        }
        return "\(count) fixes, mean \(mean(\.total)) µs: matching \(mean(\.matching)), horizon update "
            + "\(mean(\.horizon)), provider ingest \(mean(\.ingest)), ticks \(mean(\.ticks))"
    }

    /// The slowest `share` of `costs` by total thread CPU time (at least one), slowest first.
    static func slowestFixes(_ costs: [FixCost], share: Double) -> ArraySlice<FixCost> {
        let count = max(1, Int((Double(costs.count) * share).rounded(.up)))
        return costs.sorted { $0.total > $1.total }.prefix(count)
    }
}
