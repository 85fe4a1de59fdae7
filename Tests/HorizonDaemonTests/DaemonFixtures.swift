import ADASISProvider
import DaemonConfiguration
import GNSS
import GNSSSources
import RoadMap
import SocketCAN
@testable import HorizonDaemon

/// A straight street of 30 links of 100 m going east from (60.17, 24.94), each junction with a
/// side road north.
func street() -> InMemoryRoadNetwork {
    let projection = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94))
    var links: [RoadLink] = []
    for i in 1...30 {
        let a = projection.unproject(x: Double(i - 1) * 100, y: 0), b = projection.unproject(x: Double(i) * 100, y: 0)
        links.append(
            RoadLink(
                id: LinkID(UInt64(i)), wayID: Int64(i), startNode: NodeID(Int64(i - 1)), endNode: NodeID(Int64(i)),
                geometry: [a, b], highway: .secondary, name: "Main",
                forward: DirectionalAttributes(speedLimit: SpeedLimit(value: .kilometresPerHour(50), kind: .explicit))))
        let c = projection.unproject(x: Double(i) * 100, y: 100)
        links.append(
            RoadLink(
                id: LinkID(UInt64(100 + i)), wayID: Int64(100 + i), startNode: NodeID(Int64(i)),
                endNode: NodeID(Int64(100 + i)), geometry: [b, c], highway: .residential))
    }
    return InMemoryRoadNetwork(links: links)
}

/// The street's metadata (Finland).
let streetMetadata = MapMetadata(
    sourceFile: "street.osm.pbf", sourceTimestamp: 1_561_939_200, countries: ["FI"],
    boundingBox: [60.16, 24.93, 60.18, 24.99], importReport: ImportReport())

/// A daemon configuration on vcan0 with `extra` TOML appended.
func daemonConfiguration(_ extra: String = "") throws -> DaemonConfiguration {
    try DaemonConfiguration(
        toml: "[map]\npath = \"street.map\"\n[can]\ninterface = \"vcan0\"\n[metrics]\ntextfile = \"/m.prom\"\n" + extra,
        source: "test.toml")
}

/// The fix at `second` of a drive east along the street at 10 m/s, on the receiver's clock
/// (which starts at 1000 s).
func streetFix(_ second: Double) -> GNSSFix {
    let point = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94)).unproject(x: 5 + second * 10, y: 0)
    return GNSSFix(
        time: 1000 + second, latitude: point.latitude, longitude: point.longitude,
        horizontalAccuracy: 3, speed: 10, heading: 90)
}

/// A frame sink that records what it is given and answers as scripted.
final class RecordingFrameSink: FrameSink {
    /// Frames the sink accepted, in order.
    var accepted: [CANFrame] = []
    /// Send attempts so far.
    var attempts = 0
    /// The answer for the n-th attempt (1-based); `.sent` when it returns nil.
    var answer: (Int) -> FrameSendResult? = { _ in nil }
    /// Error reads still to hand out, first first; then nothing.
    var pendingReads: [BusErrorRead] = []

    func send(_ frame: CANFrame) -> FrameSendResult {
        attempts += 1
        let result = answer(attempts) ?? .sent
        if result == .sent { accepted.append(frame) }
        return result
    }

    func readErrorEvents(limit: Int) -> BusErrorRead {
        pendingReads.isEmpty ? BusErrorRead() : pendingReads.removeFirst()
    }
}

/// Opens scripted sinks: each open takes the next outcome (a sink, or an error).
final class ScriptedOpener: FrameSinkOpener {
    /// What the next opens give, first first; after the last, the interface is down.
    var outcomes: [Result<any FrameSink, SocketCANError>]
    /// Open attempts so far.
    private(set) var attempts = 0

    init(_ outcomes: [Result<any FrameSink, SocketCANError>]) { self.outcomes = outcomes }

    func open(interface: String) throws(SocketCANError) -> any FrameSink {
        attempts += 1
        guard !outcomes.isEmpty else { throw interfaceDown }
        return try outcomes.removeFirst().get()
    }
}

/// The error an interface that is down gives.
let interfaceDown = SocketCANError(errno: 0, call: "status", interface: "vcan0", code: .networkDown)

/// The run loop's order of calls, on simulated monotonic time and without threads: what
/// ``RunDaemon/run(signals:)`` does on each wake-up, with the effects collected instead of done.
struct SimulatedRunLoop {
    var core: DaemonCore
    var transmitter: CANTransmitter
    /// Fixes waiting for the next tick.
    var inbox: [FixInbox.Arrival] = []
    /// Every effect so far except `.send` (which the transmitter carries out).
    var effects: [DaemonEffect] = []
    /// Frames handed to the transmitter.
    var framesOffered = 0

    init(_ configuration: DaemonConfiguration, opener: any FrameSinkOpener, watchdog: Double? = nil, at now: Double = 0)
        throws
    {
        core = try DaemonCore(
            configuration: configuration, path: "test.toml", map: street(), metadata: streetMetadata,
            watchdogInterval: watchdog, at: now)
        transmitter = CANTransmitter(interface: configuration.canInterface, opener: opener)
    }

    /// One wake-up at `now`.
    mutating func wake(at now: Double) {
        if core.isTickDue(at: now) {
            for arrival in inbox { perform(core.receive(arrival)) }
            inbox.removeAll()
            perform(transmitter.maintain(&core, at: now))
        }
        perform(core.wake(at: now, gnss: .init(connected: true)))
    }

    /// Wakes at every deadline from now until `end`, with a fix arriving every second (0.1 s
    /// after its receiver time) while `fixes` says so; `afterWake` runs after each wake-up.
    mutating func run(
        from start: Double, to end: Double, fixes: (Double) -> Bool = { _ in true },
        afterWake: () -> Void = {}
    ) {
        var now = start
        var nextFix = start.rounded(.up)
        while now < end {
            while nextFix <= now {
                if fixes(nextFix) { inbox.append(.init(fix: streetFix(nextFix), receivedAt: nextFix + 0.1)) }
                nextFix += 1
            }
            wake(at: now)
            afterWake()
            now = max(core.nextDeadline, now + 1e-6)
        }
    }

    mutating func perform(_ list: [DaemonEffect]) {
        for effect in list {
            if case .send(let frames) = effect {
                framesOffered += frames.count
                perform(transmitter.send(frames, core: &core))
            } else {
                effects.append(effect)
            }
        }
    }

    /// The log lines so far containing `text`.
    func logs(containing text: String) -> [String] {
        effects.compactMap { if case .log(_, let line) = $0, line.contains(text) { line } else { nil } }
    }

    /// The notifications so far.
    var notifications: [String] { effects.compactMap { if case .notify(let message) = $0 { message } else { nil } } }

    /// The metrics now.
    func metrics(at now: Double) -> DaemonMetrics { core.snapshot(at: now, gnss: .init(connected: true)) }
}
