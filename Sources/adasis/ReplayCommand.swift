import ADASISProvider
import ADASISv2
import ArgumentParser
import Foundation
import GNSS
import GNSSSources
import Horizon
import HorizonDaemon
import RoadMap
import RoadMapStore
import SocketCAN

/// `adasis replay --map MAP TRACE --candump FILE | --can IF`.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded drive through the whole pipeline and write the ADASIS v2 frames.",
        discussion: """
            Map matching, the horizon engine and the ADASIS provider run on the drive's own clock \
            (ticks of 100 ms from its first fix), so the same inputs give byte-identical frames every \
            run. Frames go to a candump -L log (timestamps = seconds from the first fix) or to a CAN \
            interface, as fast as possible (a full transmit queue is waited out, 10 retries over about 1 s) or \
            at --speed times real time (a frame that does not fit is dropped and counted, as `adasis run` does).

              adasis replay --map helsinki.map Data/drives/kamppi.csv --candump kamppi.log
              adasis replay --map helsinki.map Data/drives/kamppi.csv --can vcan0 --speed 1
            """)

    @OptionGroup var drive: DriveOptions

    @OptionGroup var treeShape: TreeShapeOptions

    @Option(help: "Write the frames to this candump -L log (written atomically).")
    var candump: String?

    @Option(name: .customLong("can"), help: "Send the frames to this CAN interface, e.g. vcan0.")
    var interface: String?

    @Option(help: "Pace the frames at this multiple of real time (e.g. 1 or 10); default: as fast as possible.")
    var speed: Double?

    // The values of enum options are listed by ArgumentParser from `allCases` ("values: …").
    @Option(
        help:
            "Message preset (default: POSITION, STUB, SEGMENT, META-DATA; all: also PROFILE SHORT and LONG; mini: the current link's SEGMENT)."
    )
    var preset: MessageSelection.Preset = .default

    @Option(
        help: """
            Profile types to send on top of the preset, comma-separated: \(SelectableProfile.valueList) \
            (switches PROFILE SHORT/LONG on as needed, and the others of that message off).
            """, transform: SelectableProfile.list)
    var profiles: [SelectableProfile]?

    @Option(help: "Offsets near 8191 m: wrap modulo 8191, or start a new main path before the wrap.")
    var offsetPolicy: OffsetPolicy = .wrap

    @Option(help: "Replay only the first this many seconds of the drive.")
    var duration: Double?

    @Option(help: "Interface name written into the candump log.")
    var logInterface: String = "vcan0"

    func validate() throws {
        if (candump == nil) == (interface == nil) {
            throw ValidationError("give exactly one of --candump FILE or --can INTERFACE")
        }
        if let speed, !(speed > 0) { throw ValidationError("--speed must be positive, got \(speed)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive, got \(duration)") }
    }

    func run() throws {
        do {
            var session = try drive.open(horizon: treeShape.applied(to: HorizonConfiguration()))
            var fixes = session.trace.fixes
            if let duration { fixes = fixes.filter { $0.time <= duration + 1e-9 } }
            let resets = Set(session.trace.resets.map(\.fixIndex))
            let pipeline = try makePipeline(session)
            // The route session sees every match and hands a replanned route to the engine.
            var routeError: (any Error)?
            // When the feed expires the traffic-speed profile says "no data" everywhere.
            var speedsExpireAt = session.trafficSpeeds == nil ? nil : session.trafficValidUntil
            let follow: (GNSSFix, MatchResult, [HorizonEvent]) -> Void = { _, match, _ in
                if let end = speedsExpireAt, match.time >= end {
                    pipeline.provider.setTrafficSpeeds(TrafficSpeedTable())
                    speedsExpireAt = nil
                }
                guard routeError == nil else { return }
                do { try session.follow(match, engine: pipeline.engine) } catch { routeError = error }
                // The traffic's objects changed in place: the provider sends only those that changed.
                if session.trafficObjectsChanged { pipeline.provider.contentChanged(tree: pipeline.engine.tree) }
                if let traffic = session.traffic, session.trafficSpeeds != nil, session.trafficObjectsChanged,
                    traffic.state.valid
                {
                    pipeline.provider.setTrafficSpeeds(
                        TrafficSpeedTable(traffic.layer.linkSpeeds(at: traffic.date(atTraceTime: match.time))))
                }
            }
            if let candump {
                var lines = ""
                try pipeline.replay(fixes, matcherResets: resets, onFix: follow) { frame in
                    if let record = frame.candumpRecord(interface: logInterface) { lines += record.line + "\n" }
                }
                if let routeError { throw routeError }
                try AtomicFile.replace(candump, with: Array(lines.utf8))
            } else if let interface {
                try send(pipeline, fixes: fixes, resets: resets, interface: interface, onFix: follow)
                if let routeError { throw routeError }
            }
            printToStandardError(ReplayCommand.summary(pipeline.provider.counters))
        } catch let error as ExitCode {
            throw error
        } catch {
            printToStandardError("adasis replay: \(error)")
            throw ExitCode.failure
        }
    }

    /// The pipeline of this replay: the session's matcher, horizon settings and route, and the
    /// provider configured by `--preset`, `--profiles` and `--offset-policy` with META-DATA from
    /// the map.
    func makePipeline(_ session: DriveSession) throws -> HorizonPipeline {
        try Self.makePipeline(session, preset: preset, profiles: profiles, offsetPolicy: offsetPolicy)
    }

    /// The pipeline a replay of `session` runs with these provider settings (also `adasis horizon
    /// --as-sent`'s, with the defaults).
    static func makePipeline(
        _ session: DriveSession, preset: MessageSelection.Preset = .default, profiles: [SelectableProfile]? = nil,
        offsetPolicy: OffsetPolicy = .wrap
    ) throws -> HorizonPipeline {
        var configuration = ProviderConfiguration()
        configuration.messages = MessageSelection(preset: preset)
        configuration.offsetPolicy = offsetPolicy
        if let profiles { configuration.messages.sendOnly(profiles) }
        configuration.roadObjectTypes = session.horizon.roadObjectTypes
        configuration.sendRadius = TreeShapeOptions.sendRadius(session.horizon)
        configuration.metaData = MetaDataMessage(map: session.map.metadata)
        configuration.places = PlaceCodes(map: session.map.metadata)
        configuration.digitisedArea =
            session.map.metadata.boundingBox.count == 4 ? session.map.metadata.boundingBox : nil
        let pipeline = try HorizonPipeline(
            network: session.network, matcher: session.matcher, horizon: session.horizon,
            provider: configuration)
        try pipeline.engine.setRoute(session.route)
        if let speeds = session.trafficSpeeds { pipeline.provider.setTrafficSpeeds(speeds) }
        return pipeline
    }

    private func send(
        _ pipeline: HorizonPipeline, fixes: [GNSSFix], resets: Set<Int>, interface: String,
        onFix: (GNSSFix, MatchResult, [HorizonEvent]) -> Void
    ) throws {
        let socket = try CANSocket(interface: interface)
        let start = MonotonicClock.now()
        // Unpaced, nothing is late: a full queue is waited out. Paced, a frame that does not fit is
        // dropped and counted, as the daemon does.
        let retries = speed == nil ? 10 : 0
        var transmitQueueFull = false
        try pipeline.replay(fixes, matcherResets: resets, onFix: onFix) { frame in
            if let speed {
                let due = start + frame.time / speed
                MonotonicClock.sleep(seconds: min(due - MonotonicClock.now(), 10))
            }
            guard let canFrame = frame.canFrame else { return }
            if try socket.send(canFrame, retryingWhileFull: retries) {
                transmitQueueFull = false
            } else {
                pipeline.provider.senderDropped(frame)
                if !transmitQueueFull {
                    printToStandardError("adasis replay: \(interface) transmit queue full; dropping frames")
                }
                transmitQueueFull = true
            }
        }
    }

    static func summary(_ counters: ProviderCounters) -> String {
        let order: [MessageType] = [.position, .metaData, .segment, .stub, .profileShort, .profileLong]
        let sent = order.map { "\($0) \(counters.framesSent[$0] ?? 0)" }.joined(separator: ", ")
        let dropped =
            counters.framesDroppedByBudget.values.reduce(0, +) + counters.framesDroppedBySender.values.reduce(0, +)
        return
            "adasis replay: sent \(counters.totalSent) frames (\(sent)); \(dropped) dropped, \(counters.updates) updates, \(counters.newMainPaths) new main paths"
    }
}
