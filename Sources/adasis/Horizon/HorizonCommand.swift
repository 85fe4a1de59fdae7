import ArgumentParser
import Foundation
import GNSS
import ADASISProvider
import Horizon
import RoadMap

/// `adasis horizon --map MAP TRACE`.
struct HorizonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "horizon",
        abstract: "Run a recorded drive through matching and the horizon engine, one JSON object per fix.",
        discussion: """
            Each line: time_s, state, the matched way and link, the main path ahead of the vehicle as \
            an ordered list of {way_id, length_m} (the first element is what is left of the current \
            way), and the side paths with their level, distance of their branch ahead of the vehicle, \
            probability and ways; the road objects not yet behind the vehicle on the main path \
            (--objects chooses the types) with their distance and offsets, and the object events of \
            the fix (entered, exited). --at prints the horizon at one moment, indented, with the \
            upcoming speed-limit change, curve, camera, tunnel and intersection.
            """)

    @OptionGroup var drive: DriveOptions

    @Option(help: "Print only the fix at (or first after) this many seconds from the start, pretty-printed.")
    var at: Double?

    @Option(help: "Look-ahead of the main path, metres.")
    var mainLength: Double = 2000

    @OptionGroup var treeShape: TreeShapeOptions

    @Flag(
        help: """
            Add mpp_splits: the junctions ahead on the main path where another continuation is \
            within 5 % of the main path's (Mapbox's several most probable paths), for the client \
            to choose.
            """)
    var mppSplits = false

    @Option(
        help: ArgumentParser.ArgumentHelp(
            "Build each fix's horizon from the match of the fix N back, decided with fixed-lag smoothing (adasis match --lag): what a horizon that waits N fixes would show at each fix; the first N fixes print nothing.",
            valueName: "N"))
    var lag = 0

    @Flag(
        help: """
            List only the side paths a receiver holds: run the provider alongside (default messages, \
            as adasis replay sends them) and keep the side paths it has given a path index by its \
            last tick before the next fix. ADASIS v2 has 56 path indices; beyond them a side path \
            goes as a stub-only STUB, without content.
            """)
    var asSent = false

    func validate() throws {
        if !(0...10).contains(lag) { throw ValidationError("--lag must be 0…10 fixes, got \(lag)") }
        if lag > 0, asSent {
            throw ValidationError("--as-sent runs the causal matcher, as the provider does: not with --lag")
        }
        if lag > 0, drive.baseline || drive.route != nil || drive.destination != nil {
            throw ValidationError("--lag smooths the HMM matcher alone: not with --baseline, --route or --destination")
        }
    }

    func run() throws {
        do {
            var configuration = HorizonConfiguration()
            configuration.lookAhead[0] = mainLength
            var session = try drive.open(horizon: treeShape.applied(to: configuration))
            let pipeline = asSent ? try ReplayCommand.makePipeline(session) : nil
            let engine = try pipeline?.engine ?? session.makeEngine()
            var ticks = ProviderTicks(interval: pipeline?.provider.configuration.tickInterval ?? 0.1)
            // The engine tells what changed; the command reacts instead of polling the tree.
            var splits: [MostProbablePathSplit] = []
            engine.addObserver { observation in
                if case .mostProbablePathChanged(let path) = observation { splits = path?.splits ?? [] }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting =
                at == nil
                ? [.sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            var buffer = Data()
            var tracker = RoadObjectTracker()
            let smoother = (session.matcher as? OnlineMapMatcher).flatMap {
                lag > 0 ? FixedLagMatcher(matcher: $0, lag: lag) : nil
            }
            for (index, fix) in session.trace.fixes.enumerated() {
                var result: MatchResult
                if let smoother {
                    if session.trace.startsAfterReset(index) { _ = smoother.reset() }
                    // The match of the fix `lag` back, as the horizon has it at this fix's time.
                    guard let lagged = try smoother.match(fix).last else { continue }
                    result = MatchResult(time: fix.time, state: lagged.state, discontinuity: lagged.discontinuity)
                } else if let pipeline {
                    if session.trace.startsAfterReset(index) { session.matcher.reset() }
                    guard let processed = try pipeline.process(fix) else { continue }
                    result = processed.match
                    let fixes = session.trace.fixes
                    let next = index + 1 < fixes.count ? fixes[index + 1].time : fix.time + 1
                    ticks.run(pipeline.provider, before: next, from: fixes[0].time)
                } else {
                    if session.trace.startsAfterReset(index) { session.matcher.reset() }
                    result = try session.matcher.match(fix)
                }
                if pipeline == nil {
                    // The lagged match has no candidates of its own fix.
                    let matcher = smoother == nil ? session.matcher as? OnlineMapMatcher : nil
                    _ = try engine.update(result, candidates: matcher?.candidatePositions ?? [])
                }
                try session.follow(result, engine: engine)
                let objects = engine.tree.mainPathID.map(engine.roadObjects(on:)) ?? []
                let previous = index > 0 ? session.trace.fixes[index - 1].time : fix.time
                let driven = (fix.speed ?? 0) * max(0, fix.time - previous)
                let events = tracker.update(mainPathObjects: objects, after: engine, driven: driven)
                if let at, fix.time + 1e-6 < at { continue }
                var snapshot = HorizonSnapshot(result: result, engine: engine, map: session.map, withQueries: at != nil)
                if let provider = pipeline?.provider {
                    snapshot.side_paths.removeAll { provider.pathIndex(of: PathID(rawValue: $0.path_id)) == nil }
                }
                if mppSplits { snapshot.describe(splits, vehicle: engine.vehicleOffset, map: session.map) }
                snapshot.describeObjects(objects, events: events, vehicle: engine.vehicleOffset)
                buffer.append(try encoder.encode(snapshot))
                buffer.append(0x0A)
                if at != nil { break }
                if buffer.count > 1 << 16 {
                    FileHandle.standardOutput.write(buffer); buffer.removeAll(keepingCapacity: true)
                }
            }
            FileHandle.standardOutput.write(buffer)
            if let at, buffer.isEmpty {
                printToStandardError("adasis horizon: the drive ends before \(at) s")
                throw ExitCode.failure
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis horizon: \(error)")
            throw ExitCode.failure
        }
    }
}
