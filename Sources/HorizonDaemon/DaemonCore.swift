import ADASISProvider
import DaemonConfiguration
import GNSS
import GNSSSources
import Horizon
import RoadMap
import Routing

/// The daemon's behaviour without its I/O: a state machine that takes arrivals (GNSS fixes, bus
/// events, transmit results, reloads, the passing of monotonic time) and returns the frames to
/// send and the other effects (log lines, notifications, metrics, switching sources).
///
/// It reads no clock (every call gets the monotonic time), opens nothing, starts no threads and
/// takes no signals; ``RunDaemon`` does all of that and feeds it. The map is read through
/// ``RoadMap/RoadNetwork`` by the pipeline, as in the replay command.
///
/// Each tick, the run loop first hands over the fixes that arrived (``receive(_:)``), then the
/// bus's news (``busChanged(_:at:)``), then calls ``wake(at:gnss:)``, which ticks the pipeline,
/// feeds the watchdog and takes the metrics snapshot when they are due.
public struct DaemonCore {
    /// The running configuration.
    public internal(set) var configuration: DaemonConfiguration
    /// The configuration file (named in errors and logs).
    public let configurationPath: String
    /// The map the pipeline reads.
    public internal(set) var map: any RoadNetwork
    /// The map's metadata (META-DATA, digitised area).
    public internal(set) var mapMetadata: MapMetadata
    /// Matching, horizon and provider.
    public internal(set) var pipeline: HorizonPipeline
    /// The CAN bus as far as the core knows it.
    public internal(set) var bus: CANBusState
    /// The receiver's time line that tick times are placed on.
    public internal(set) var timeline = ReceiverTimeline()
    /// The last fix processed.
    public internal(set) var lastFix: GNSSFix?
    /// The active route and its replanning, on ``map``; the horizon's main path follows it.
    public internal(set) var routes: RouteSession
    /// Whether systemd has been told READY=1.
    public internal(set) var ready = false

    /// How often to send `WATCHDOG=1`; `nil` without a watchdog.
    public let watchdogInterval: Double?
    /// The provider's tick interval when the daemon started.
    public let tickInterval: Double
    /// When the next tick is due (monotonic seconds).
    public internal(set) var nextTick: Double
    /// When the next `WATCHDOG=1` is due.
    public internal(set) var nextWatchdog: Double
    /// When the next metrics snapshot is due.
    public internal(set) var nextMetrics: Double

    var latency = LatencyWindow()
    /// Whether the newest fix processed is recent, and if not, why.
    var fixFreshness = FixFreshness.current
    /// Episodes of ``FixFreshness/processingBehind``.
    var processingBacklogs = 0
    var mapReadFailing = false
    /// Whether the vehicle was last matched off road, as last logged (fixes matched `unknown`
    /// leave it as it is; ``receive(_:)`` logs each change).
    var offRoad = false
    /// Counts of pipelines, buses and GNSS sources replaced by reloads and resynchronisations.
    var retired = DaemonMetrics()
    var fixesProcessed = 0
    /// Receiver resets: fixes whose time went back far enough to re-anchor the time line.
    var receiverResets = 0
    /// Fixes that arrived late but in order (``ReceiverTimeline/Adjustment/delayed(seconds:)``).
    var delayedFixes = 0
    /// Late fixes: not newer than the last fix processed, and too little older to be a receiver
    /// reset (superseded before they were used); skipped, counted with reason `late`.
    var lateFixes = 0
    var reloadsApplied = 0
    var reloadsRejected = 0
    var tickOverruns = 0
    /// The traffic feed in use and the feeds' counts (`DaemonCore+Traffic.swift`).
    var traffic = DaemonTraffic()
    /// The polls of `[traffic] url` (`DaemonCore+TrafficPolling.swift`).
    var trafficPolling = TrafficPolling()

    /// A core for `configuration` on `map`, starting at monotonic time `now`.
    /// - Parameters:
    ///   - watchdogInterval: how often systemd wants `WATCHDOG=1`; `nil` for none.
    /// - Throws: ``DaemonConfiguration/ConfigurationError`` when the settings do not fit the map,
    ///   or the pipeline's error.
    public init(
        configuration: DaemonConfiguration, path: String, map: any RoadNetwork, metadata: MapMetadata,
        watchdogInterval: Double?, at now: Double
    ) throws {
        self.configuration = configuration
        configurationPath = path
        self.map = map
        mapMetadata = metadata
        let settings = try PipelineSettings(configuration, map: metadata, file: path)
        pipeline = try HorizonPipeline(
            network: map, matching: settings.matching, horizon: settings.horizon, provider: settings.provider)
        bus = CANBusState(interface: configuration.canInterface)
        routes = RouteSession(planner: RoutePlanner(network: map), configuration: configuration.routing)
        traffic.network = DaemonTrafficNetwork(map)
        self.watchdogInterval = watchdogInterval
        tickInterval = pipeline.provider.configuration.tickInterval
        nextTick = now
        nextWatchdog = now
        nextMetrics = now + configuration.metricsInterval
    }

    /// The earliest time something is due: the run loop sleeps (taking signals) until then.
    public var nextDeadline: Double {
        let deadline = min(nextTick, nextMetrics)
        return watchdogInterval == nil ? deadline : min(deadline, nextWatchdog)
    }

    /// Whether a tick is due at `now`: the run loop then hands over fixes and bus news first.
    public func isTickDue(at now: Double) -> Bool { now >= nextTick }

    /// Places one fix on the time line and matches it (a first fix or a clock jump starts a
    /// fresh pipeline). A fix no newer than the last one processed, by less than a receiver reset
    /// (``ReceiverTimeline/resynchroniseAfter``), was superseded: it is skipped and counted as late.
    public mutating func receive(_ arrival: FixInbox.Arrival) -> [DaemonEffect] {
        if let lastFix, arrival.fix.time <= lastFix.time,
            lastFix.time - arrival.fix.time <= timeline.resynchroniseAfter
        {
            lateFixes += 1
            return []
        }
        var effects: [DaemonEffect] = []
        let stallUnderWay = timeline.isLate  // a stall is logged once, at its first late fix
        switch timeline.observe(fixTime: arrival.fix.time, receivedAt: arrival.receivedAt) {
        case .anchored:
            effects.append(.log(.info, "first GNSS fix; time line anchored to the receiver's clock"))
            effects += replacePipeline(reason: nil, continuingMatching: false)
        case .resynchronised(let jump):
            if jump < 0 { receiverResets += 1 }
            effects.append(
                .log(.warning, "receiver clock jumped by \(jump) s: time line re-anchored, starting a fresh horizon"))
            effects += replacePipeline(reason: "clock jump", continuingMatching: false)
        case .delayed(let seconds):
            delayedFixes += 1
            if !stallUnderWay {
                effects.append(
                    .log(
                        .notice,
                        "a fix arrived \(String(format: "%.1f", seconds)) s late (held up between the receiver "
                            + "and us); the time line stays"))
            }
        case .none:
            break
        }
        if fixFreshness == .gnssLost {
            fixFreshness = .current
            effects.append(.log(.notice, "GNSS fixes again"))
        }
        do {
            if let (match, _) = try pipeline.process(arrival.fix) {
                effects += followRoute(match)
                effects += noteRoadState(match)
            }
            if mapReadFailing {
                mapReadFailing = false
                effects.append(.log(.notice, "map reads work again"))
            }
        } catch {
            if !mapReadFailing {
                effects.append(.log(.error, "map read failed: \(error); fixes are skipped until it works"))
            }
            mapReadFailing = true
        }
        fixesProcessed += 1
        lastFix = arrival.fix
        return effects
    }

    /// Logs the vehicle leaving the map's roads, and coming back to them, once each time.
    private mutating func noteRoadState(_ match: MatchResult) -> [DaemonEffect] {
        let off: Bool
        switch match.state {
        case .onRoad: off = false
        case .offRoad: off = true
        case .unknown: return []
        }
        guard off != offRoad else { return [] }
        offRoad = off
        return [
            .log(
                .notice,
                off
                    ? "off road: no road of the map near the fixes explains them (a road the map lacks, a car park); "
                        + "no horizon until the vehicle is back on one"
                    : "back on a road of the map")
        ]
    }

    /// Records how long the run loop measured one ``receive(_:)`` to take (for the metrics).
    public mutating func recordProcessingTime(_ seconds: Double) {
        latency.record(seconds)
    }

    /// Takes news from the bus at monotonic time `now`: logs, a fresh horizon when the bus came
    /// back, READY=1 when it first opened.
    public mutating func busChanged(_ event: BusEvent, at now: Double) -> [DaemonEffect] {
        var (outcome, effects) = bus.apply(event)
        if outcome.restartHorizon { pipeline.provider.restartHorizon(at: timeline.time(atMonotonic: now)) }
        if outcome.firstOpened && !ready {
            ready = true
            effects.append(.notify("READY=1"))
            effects.append(.log(.notice, "ready: map open, CAN socket up on \(configuration.canInterface)"))
        }
        return effects
    }

    /// Whether to try opening the CAN socket at `now` (see ``CANBusState/openAttemptDue(at:)``).
    public mutating func busOpenAttemptDue(at now: Double) -> Bool {
        bus.openAttemptDue(at: now)
    }

    /// Takes the result of sending `frame`: a dropped frame is reported to the provider and counted.
    public mutating func record(_ result: FrameSendResult, of frame: ProviderFrame) -> [DaemonEffect] {
        if result != .sent { pipeline.provider.senderDropped(frame) }
        return bus.record(result, type: frame.message.type)
    }

    /// Does what is due at monotonic time `now`: the tick (GNSS staleness, the provider's
    /// frames), `WATCHDOG=1`, the metrics snapshot. `gnss` is the source's state for the metrics.
    public mutating func wake(at now: Double, gnss: FixInbox.SourceState) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        if now >= nextTick {
            effects += followTrafficClock(at: now)
            effects += tick(at: now, gnss: gnss)
            nextTick += tickInterval
            if nextTick < now {
                tickOverruns += 1
                nextTick = now + tickInterval
            }
        }
        if let watchdogInterval, now >= nextWatchdog {
            effects.append(.notify("WATCHDOG=1"))
            nextWatchdog = now + watchdogInterval
        }
        if now >= nextMetrics {
            effects += metrics(at: now, gnss: gnss)
            nextMetrics = now + configuration.metricsInterval
        }
        return effects
    }

    /// SIGTERM or SIGINT: the last notification and metrics.
    public mutating func stop(at now: Double, gnss: FixInbox.SourceState, signal: String) -> [DaemonEffect] {
        [.log(.notice, "\(signal): stopping"), .notify("STOPPING=1")] + metrics(at: now, gnss: gnss)
    }

    /// One tick: GNSS staleness, then the provider's frames.
    ///
    /// The newest fix processed being older than `gnss.stale_after_s` is a lost GNSS only when no
    /// fix arrived within that time either; when newer fixes wait in the inbox (`gnss`), the loop
    /// fell behind (a stall), which is logged and counted as such. In both cases POSITION reports
    /// unknown until a fresh fix is processed: the provider knows no newer position.
    private mutating func tick(at now: Double, gnss: FixInbox.SourceState) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        let time = timeline.time(atMonotonic: now)
        let stale = configuration.gnssStaleAfter
        if let lastFix, time - lastFix.time > stale {
            if let arrival = gnss.newestWaitingArrival, now - arrival <= stale {
                if fixFreshness == .current {
                    fixFreshness = .processingBehind
                    processingBacklogs += 1
                    let age = String(format: "%.1f", time - lastFix.time)
                    effects.append(
                        .log(
                            .warning,
                            "processing behind: the newest fix used is \(age) s old while newer ones wait; "
                                + "POSITION reports unknown until they are worked through"))
                }
            } else if fixFreshness != .gnssLost {
                fixFreshness = .gnssLost
                effects.append(.log(.warning, "GNSS lost: no fix for \(stale) s; POSITION reports unknown"))
            }
        } else if fixFreshness == .processingBehind {
            fixFreshness = .current
            effects.append(.log(.notice, "processing caught up with the fixes"))
        }
        effects.append(.send(pipeline.tick(at: time)))
        return effects
    }

    /// The metrics snapshot (when a file is configured); starts the next latency interval.
    private mutating func metrics(at now: Double, gnss: FixInbox.SourceState) -> [DaemonEffect] {
        defer { latency.reset() }
        guard let path = configuration.metricsTextfile else { return [] }
        return [.writeMetrics(snapshot(at: now, gnss: gnss), path: path)]
    }

    /// Hands a new pipeline the last fix (unless GNSS is lost): a pipeline that has not seen a
    /// fix yet then has a horizon at once instead of with the next fix; one that took the running
    /// matcher over builds it from the matcher's match of that fix (``HorizonPipeline/resume(at:)``).
    /// The fix's match, if any.
    @discardableResult
    func processLastFixAgain() -> MatchResult? {
        guard let lastFix, fixFreshness != .gnssLost else { return nil }
        return (try? pipeline.resume(at: lastFix)) ?? nil
    }

    /// Builds a new pipeline with the running settings, continuing the old one's stream and
    /// keeping its counts; `reason` is logged when given. With `continuingMatching` (the roads are
    /// the same: new road objects or traffic) the running matcher goes on in it, so the match
    /// keeps its history; without (the first fix, a clock jump) a new matcher starts.
    mutating func replacePipeline(reason: String?, continuingMatching: Bool) -> [DaemonEffect] {
        do {
            let settings = try PipelineSettings(configuration, map: mapMetadata, file: configurationPath)
            let fresh = try newPipeline(on: horizonNetwork, settings, continuingMatching: continuingMatching)
            try fresh.engine.setRoute(routes.links)
            if let speeds = traffic.speeds { fresh.provider.setTrafficSpeeds(speeds) }
            fresh.provider.continueStream(from: pipeline.provider)
            retire(pipeline, matcherContinues: continuingMatching)
            pipeline = fresh
            return reason.map { [.log(.info, "new pipeline (\($0))")] } ?? []
        } catch {
            return [.log(.error, "cannot rebuild the pipeline: \(error); keeping the running one")]
        }
    }

    /// A pipeline on `network` with `settings`, taking the running matcher over when
    /// `continuingMatching`, else with a new one.
    func newPipeline(on network: any RoadNetwork, _ settings: PipelineSettings, continuingMatching: Bool) throws
        -> HorizonPipeline
    {
        if continuingMatching {
            return try HorizonPipeline(
                network: network, continuingMatchingOf: pipeline, horizon: settings.horizon,
                provider: settings.provider)
        }
        return try HorizonPipeline(
            network: network, matching: settings.matching, horizon: settings.horizon, provider: settings.provider)
    }
}

/// Whether the newest fix the daemon processed is recent (within `gnss.stale_after_s`), and if
/// not, whether the receiver or the daemon is to blame.
enum FixFreshness: Sendable {
    /// Recent, or no fix yet.
    case current
    /// Stale, while newer fixes wait in the inbox: the loop fell behind (a stall).
    case processingBehind
    /// Stale, and no fix arrived within that time: the receiver is gone.
    case gnssLost
}
