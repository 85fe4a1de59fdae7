#if canImport(Glibc)
import Glibc
#endif
import ADASISProvider
import DaemonConfiguration
import Foundation
import GNSS
import Logging
import RoadMap
import RoadMapStore

/// The running daemon: GNSS reader thread → (fix queue) → main loop on the monotonic clock that
/// matches fixes, ticks the provider every `tickInterval`, sends frames, feeds the systemd
/// watchdog and writes metrics; SIGTERM/SIGINT stop it, SIGHUP reloads the configuration.
///
/// Signals are blocked in every thread and taken synchronously with `sigtimedwait` while the
/// loop waits for its next deadline, so there are no signal handlers and no global state.
final class RunDaemon {
    let configurationPath: String
    var configuration: DaemonConfiguration
    var logger: Logger
    var map: MapFile
    var pipeline: HorizonPipeline
    var transmitter: CANTransmitter
    var inbox: FixInbox
    let notifier: SystemdNotifier?

    var timeline = ReceiverTimeline()
    var latency = LatencyWindow()
    var lastFix: GNSSFix?
    var gnssLost = false
    var mapReadFailing = false
    var metricsFailing = false
    var notifyFailing = false
    var ready = false
    /// Counts of pipelines and transmitters replaced by reloads and resynchronisations.
    var retired = DaemonMetrics()
    var fixesProcessed = 0
    var reloadsApplied = 0
    var reloadsRejected = 0
    var tickOverruns = 0

    /// Opens the map, builds the pipeline and starts the GNSS reader; the CAN socket is opened
    /// by the loop (and reopened whenever the interface comes back).
    /// - Throws: ``ConfigurationError`` when the map cannot be opened or the settings do not fit it.
    init(configuration: DaemonConfiguration, path: String, logger: Logger, notifier: SystemdNotifier?) throws {
        configurationPath = path
        self.configuration = configuration
        self.logger = logger
        self.notifier = notifier
        map = try Self.openMap(configuration, file: path)
        let settings = try PipelineSettings(configuration, map: map.metadata, file: path)
        pipeline = try HorizonPipeline(network: map, horizon: settings.horizon, provider: settings.provider)
        transmitter = CANTransmitter(interface: configuration.canInterface, logger: logger)
        inbox = GNSSReader.start(configuration.gnss, logger: logger)
        logger.info("map \(configuration.mapPath) open (countries \(map.metadata.countries.joined(separator: ",")))")
    }

    /// Opens the map of `configuration`; failures name the `map.path` key.
    static func openMap(_ configuration: DaemonConfiguration, file: String) throws(ConfigurationError) -> MapFile {
        do {
            return try MapFile(path: configuration.mapPath, cacheBytes: configuration.mapCacheMegabytes << 20)
        } catch {
            throw ConfigurationError(file: file, key: "map.path", line: nil,
                                     problem: "\(error); write a map with 'adasis map import REGION.osm.pbf -o \(configuration.mapPath) --country CC'")
        }
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status (0).
    func run(signals: sigset_t) -> Int32 {
        var signals = signals
        let tickInterval = pipeline.provider.configuration.tickInterval
        var now = MonotonicClock.now()
        var nextTick = now
        var nextWatchdog = now
        var nextMetrics = now + configuration.metricsInterval
        while true {
            now = MonotonicClock.now()
            if now >= nextTick {
                tick(at: now)
                nextTick += tickInterval
                if nextTick < now {
                    tickOverruns += 1
                    nextTick = now + tickInterval
                }
            }
            if let interval = notifier?.watchdogInterval, now >= nextWatchdog {
                notify("WATCHDOG=1")
                nextWatchdog = now + interval
            }
            if now >= nextMetrics {
                writeMetrics(at: now)
                nextMetrics = now + configuration.metricsInterval
            }
            var deadline = min(nextTick, nextMetrics)
            if notifier?.watchdogInterval != nil { deadline = min(deadline, nextWatchdog) }
            let wait = max(0, deadline - MonotonicClock.now())
            var timeout = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1_000_000_000))
            let signal = sigtimedwait(&signals, nil, &timeout)
            switch signal {
            case SIGTERM, SIGINT:
                logger.notice("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): stopping")
                notify("STOPPING=1")
                inbox.requestStop()
                writeMetrics(at: MonotonicClock.now())
                transmitter.close()
                return 0
            case SIGHUP:
                reload()
            default:
                break  // timeout (EAGAIN) or EINTR
            }
        }
    }

    /// One tick: queued fixes into the pipeline, CAN upkeep, the provider's frames onto the bus.
    func tick(at now: Double) {
        for arrival in inbox.collect() { process(arrival) }
        let time = timeline.time(atMonotonic: now)
        let outcome = transmitter.maintain(at: now)
        if outcome.restartHorizon { pipeline.provider.restartHorizon(at: time) }
        if outcome.firstOpened && !ready {
            ready = true
            notify("READY=1")
            logger.notice("ready: map open, CAN socket up on \(configuration.canInterface)")
        }
        if let lastFix, !gnssLost, time - lastFix.time > configuration.gnssStaleAfter {
            gnssLost = true
            logger.warning("GNSS lost: no fix for \(configuration.gnssStaleAfter) s; POSITION reports unknown")
        }
        transmitter.send(pipeline.tick(at: time), provider: pipeline.provider)
    }

    /// Matches one fix (after placing the time line) and records its processing time.
    func process(_ arrival: FixInbox.Arrival) {
        switch timeline.observe(fixTime: arrival.fix.time, receivedAt: arrival.receivedAt) {
        case .anchored:
            logger.info("first GNSS fix; time line anchored to the receiver's clock")
            replacePipeline(reason: nil)
        case .resynchronised(let jump):
            logger.warning("receiver clock jumped by \(jump) s: time line re-anchored, starting a fresh horizon")
            replacePipeline(reason: "clock jump")
        case .none:
            break
        }
        if gnssLost {
            gnssLost = false
            logger.notice("GNSS fixes again")
        }
        let start = MonotonicClock.now()
        do {
            try pipeline.process(arrival.fix)
            if mapReadFailing {
                mapReadFailing = false
                logger.notice("map reads work again")
            }
        } catch {
            if !mapReadFailing { logger.error("map read failed: \(error); fixes are skipped until it works") }
            mapReadFailing = true
        }
        latency.record(MonotonicClock.now() - start)
        // Tiles around the vehicle are read here, after the fix, not while the next one waits; a
        // failed read is reported when the pipeline needs that tile.
        if arrival.fix.quality != .noFix {
            try? map.prefetch(around: GeoPoint(latitude: arrival.fix.latitude, longitude: arrival.fix.longitude),
                              radius: pipeline.engine.configuration.lookAhead.max() ?? 0)
        }
        fixesProcessed += 1
        lastFix = arrival.fix
    }

    /// Builds a new pipeline with the running settings, folding the old one's counts into
    /// ``retired``; `reason` is logged when given.
    func replacePipeline(reason: String?) {
        do {
            let settings = try PipelineSettings(configuration, map: map.metadata, file: configurationPath)
            let fresh = try HorizonPipeline(network: map, horizon: settings.horizon, provider: settings.provider)
            fresh.provider.continueStream(from: pipeline.provider)
            retire(pipeline)
            pipeline = fresh
            if let reason { logger.info("new pipeline (\(reason))") }
        } catch {
            logger.error("cannot rebuild the pipeline: \(error); keeping the running one")
        }
    }

    /// Sends `message` to systemd, logging failures.
    func notify(_ message: String) {
        guard let notifier else { return }
        do {
            try notifier.notify(message)
            notifyFailing = false
        } catch {
            if !notifyFailing { logger.warning("\(error)") }
            notifyFailing = true
        }
    }
}
