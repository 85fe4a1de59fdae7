#if canImport(Glibc)
    import Glibc
#endif
import DaemonConfiguration
import GNSS
import GNSSSources
import Logging
import RoadMap
import RoadMapStore
import RouteBus

/// The running daemon: the thin shell around ``DaemonCore`` that owns the I/O. A GNSS reader
/// thread fills a ``FixInbox``; the main loop on the ``MonotonicClock`` hands its fixes and the
/// CAN bus's news to the core, performs the core's effects (frames onto the bus, log lines,
/// sd_notify, the metrics file, switching sources), and waits for the next deadline taking
/// signals: SIGTERM/SIGINT stop it, SIGHUP reloads the configuration.
///
/// Signals are blocked in every thread and taken synchronously with `sigtimedwait` while the
/// loop waits, so there are no signal handlers and no global state.
public final class RunDaemon {
    /// The state machine.
    public internal(set) var core: DaemonCore
    private(set) var logger: Logger
    private var transmitter: CANTransmitter
    /// The map the core reads, kept here to prefetch its tiles between fixes.
    private(set) var map: MapFile
    private var inbox: FixInbox
    /// The route interface on D-Bus, when `[dbus] enabled`.
    private(set) var routeBus: RouteBusServer?
    private let notifier: SystemdNotifier?
    private let opener: any FrameSinkOpener
    private var metricsFailing = false
    private var trafficFile = TrafficFileWatch()
    /// The HTTP polls of `[traffic] url`, when configured.
    private var trafficPolling: TrafficFeedPolling?
    private var notifyFailing = false

    /// Opens the map, builds the core and starts the GNSS reader; the CAN socket is opened by
    /// the loop (and reopened whenever the interface comes back).
    /// - Parameters:
    ///   - opener: opens the CAN socket (``SocketCANFrameSinkOpener`` for the real bus).
    /// - Throws: ``DaemonConfiguration/ConfigurationError`` when the map cannot be opened or the
    ///   settings do not fit it.
    public init(
        configuration: DaemonConfiguration, path: String, logger: Logger, notifier: SystemdNotifier?,
        opener: any FrameSinkOpener = SocketCANFrameSinkOpener()
    ) throws {
        self.logger = logger
        self.notifier = notifier
        self.opener = opener
        map = try Self.openMap(configuration, file: path)
        core = try DaemonCore(
            configuration: configuration, path: path, map: try Self.withCustomObjects(map, configuration, file: path),
            metadata: map.metadata,
            watchdogInterval: notifier?.watchdogInterval, at: MonotonicClock.now())
        transmitter = CANTransmitter(interface: configuration.canInterface, opener: opener)
        inbox = GNSSReader.start(configuration.gnss, logger: logger)
        routeBus = Self.startRouteBus(configuration.dbus, logger: logger)
        trafficPolling = try TrafficFeedPolling.start(configuration.traffic, file: path)
        logger.info("map \(configuration.mapPath) open (countries \(map.metadata.countries.joined(separator: ",")))")
    }

    /// Opens the map of `configuration`; failures name the `map.path` key.
    static func openMap(_ configuration: DaemonConfiguration, file: String) throws(ConfigurationError) -> MapFile {
        do {
            return try MapFile(path: configuration.mapPath, cacheBytes: configuration.mapCacheMegabytes << 20)
        } catch {
            throw ConfigurationError(
                file: file, key: "map.path", line: nil,
                problem:
                    "\(error); write a map with 'adasis map import REGION.osm.pbf -o \(configuration.mapPath) --country CC'"
            )
        }
    }

    /// Runs until SIGTERM or SIGINT (which must be blocked in every thread, as `signals`);
    /// returns the exit status (0).
    public func run(signals: sigset_t) -> Int32 {
        var signals = signals
        while true {
            let now = MonotonicClock.now()
            if core.isTickDue(at: now) {
                // The fixes first, but for half a tick at most: a backlog (the loop fell behind)
                // must not hold the tick's POSITION back; what is left is worked on after it.
                receiveFixes(until: now + core.tickInterval / 2)
                serveRouteCalls(at: now)
                checkTrafficFeed(at: now)
                serveObjectCalls()
                perform(transmitter.maintain(&core, at: now))
            }
            perform(core.wake(at: now, gnss: inbox.source))
            receiveFixes(until: core.nextDeadline)
            let wait = max(0, core.nextDeadline - MonotonicClock.now())
            var timeout = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - wait.rounded(.down)) * 1_000_000_000))
            let signal = sigtimedwait(&signals, nil, &timeout)
            switch signal {
            case SIGTERM, SIGINT:
                let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
                let effects = core.stop(at: MonotonicClock.now(), gnss: inbox.source, signal: name)
                inbox.requestStop()
                perform(effects)
                routeBus?.requestStop()
                trafficPolling?.stop()
                transmitter.close()
                return 0
            case SIGHUP:
                reload()
            default:
                break  // timeout (EAGAIN) or EINTR
            }
        }
    }

    /// Starts serving the route interface when `settings` enable it.
    private static func startRouteBus(_ settings: DBusSettings, logger: Logger) -> RouteBusServer? {
        guard settings.enabled else { return nil }
        let bus: BusEndpoint = settings.bus == .system ? .system : .session
        return RouteBusServer.start(
            .init(bus: bus, name: settings.name, objectPath: settings.objectPath), logger: logger)
    }

    /// Hands the route calls that arrived to the core and queues its answers for the bus thread.
    private func serveRouteCalls(at now: Double) {
        guard let routeBus else { return }
        for call in routeBus.collect() {
            let (result, effects) = core.handle(call.request, at: now)
            routeBus.answer(call.id, with: result)
            perform(effects)
        }
    }

    /// Hands the traffic feed file to the core when it changed (`[traffic] feed`), and the
    /// results of the HTTP polls (`[traffic] url`).
    private func checkTrafficFeed(at now: Double) {
        if let trafficPolling { perform(trafficPolling.handOver(to: &core, at: now)) }
        let settings = core.configuration.traffic
        guard let path = settings.feedPath else { return }
        switch trafficFile.check(path, interval: settings.checkInterval, at: now) {
        case .changed(let data):
            let (outcome, effects) = core.takeTrafficFeed(data, source: path, at: now)
            if outcome != .waitingForTime { trafficFile.markHandled(data) }
            perform(effects)
        case .unreadable(let problem):
            perform(core.trafficFeedUnreadable(source: path, problem: problem))
        case nil:
            break
        }
    }

    /// Hands the waiting fixes to the core, oldest first, until monotonic time `deadline`; those
    /// left stay in the inbox (which drops and counts the oldest when it is full).
    private func receiveFixes(until deadline: Double) {
        while MonotonicClock.now() < deadline, let arrival = inbox.take() {
            let start = MonotonicClock.now()
            let effects = core.receive(arrival)
            core.recordProcessingTime(MonotonicClock.now() - start)
            perform(effects)
            prefetch(around: arrival.fix)
        }
    }

    /// Reads tiles around the vehicle after its fix is processed, not while the next one waits;
    /// a failed read is reported when the pipeline needs that tile.
    private func prefetch(around fix: GNSSFix) {
        guard fix.quality != .noFix else { return }
        try? map.prefetch(
            around: GeoPoint(latitude: fix.latitude, longitude: fix.longitude),
            radius: core.configuration.lookAhead.max() ?? 0)
    }

    /// SIGHUP: re-reads the file and reopens the map when its path or cache size changed; the
    /// core decides the rest.
    private func reload() {
        let new: DaemonConfiguration
        do {
            new = try DaemonConfiguration.load(path: core.configurationPath)
        } catch {
            return perform(core.refuseReload("\(error)"))
        }
        var opened: MapFile?
        var network: (any RoadNetwork)?
        var customObjects: (any RoadNetwork)?
        var polling: TrafficFeedPolling?
        let running = core.configuration
        do {
            if new.traffic != running.traffic {
                polling = try TrafficFeedPolling.start(new.traffic, file: core.configurationPath)
            }
            if new.mapPath != running.mapPath || new.mapCacheMegabytes != running.mapCacheMegabytes {
                let map = try Self.openMap(new, file: core.configurationPath)
                network = try Self.withCustomObjects(map, new, file: core.configurationPath)
                opened = map
            } else {
                // The same map: its custom objects are read again (`adasis objects` changed them).
                customObjects = try Self.withCustomObjects(map, new, file: core.configurationPath)
            }
        } catch {
            return perform(core.refuseReload("\(error)"))
        }
        perform(
            core.reload(
                new, newMap: opened.flatMap { map in network.map { ($0, map.metadata) } },
                customObjects: customObjects, gnss: inbox.source))
        // Prefetch into the map the core now reads: the new one only if the core took the reload.
        if let opened, core.configuration == new { map = opened }
        if core.configuration == new, new.traffic != running.traffic {
            trafficPolling?.stop()
            trafficPolling = polling
        } else {
            polling?.stop()
        }
        if core.configuration == new, new.dbus != running.dbus {
            routeBus?.requestStop()
            routeBus = Self.startRouteBus(new.dbus, logger: logger)
        }
    }

    /// Carries out the core's effects in order.
    func perform(_ effects: [DaemonEffect]) {
        for effect in effects {
            switch effect {
            case .log(let level, let message):
                logger.log(level: level, "\(message)")
            case .send(let frames):
                perform(transmitter.send(frames, core: &core))
            case .notify(let message):
                notify(message)
            case .writeMetrics(let metrics, let path):
                writeMetrics(metrics, to: path)
            case .setLogLevel(let level):
                logger.logLevel = level
            case .switchCANInterface(let interface):
                transmitter.close()
                transmitter = CANTransmitter(interface: interface, opener: opener)
            case .restartGNSS(let source):
                inbox.requestStop()
                inbox = GNSSReader.start(source, logger: logger)
            case .route(let event, let time):
                routeBus?.emit(event, time: time)
            }
        }
    }

    private func writeMetrics(_ metrics: DaemonMetrics, to path: String) {
        do {
            try MetricsFile.write(metrics.prometheusText, to: path)
            if metricsFailing { logger.notice("metrics file \(path) written again") }
            metricsFailing = false
        } catch {
            if !metricsFailing { logger.error("\(error)") }
            metricsFailing = true
        }
    }

    private func notify(_ message: String) {
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
