@testable import ADASISProvider
import SocketCAN
import Testing
@testable import HorizonDaemon

/// The bus faults a real controller produces, through a recording fake sink: fast, no kernel.
@Suite("CAN transmitter and bus state against a fake sink")
struct CANTransmitterTests {
    @Test("the first open sends READY=1 once; every frame of every tick reaches the sink in order")
    func opensAndSends() throws {
        let sink = RecordingFrameSink()
        var loop = try SimulatedRunLoop(try daemonConfiguration(), opener: ScriptedOpener([.success(sink)]))
        loop.run(from: 0, to: 5)
        #expect(loop.notifications == ["READY=1"])
        #expect(loop.logs(containing: "CAN socket open on vcan0").count == 1)
        #expect(sink.accepted.count == loop.framesOffered && loop.framesOffered > 20)
        let metrics = loop.metrics(at: 5)
        #expect(metrics.canUp)
        #expect(metrics.framesDropped.isEmpty)
        #expect(metrics.framesSent.values.reduce(0, +) >= sink.accepted.count)
    }

    @Test("a full TX queue drops exactly the refused frames, logs once per episode, and counts them")
    func transmitQueueFull() throws {
        let sink = RecordingFrameSink()
        sink.answer = { attempt in (11...15).contains(attempt) || (31...32).contains(attempt) ? .transmitQueueFull : nil
        }
        var loop = try SimulatedRunLoop(try daemonConfiguration(), opener: ScriptedOpener([.success(sink)]))
        loop.run(from: 0, to: 6)
        #expect(sink.attempts == loop.framesOffered)
        #expect(sink.accepted.count == sink.attempts - 7)
        #expect(loop.logs(containing: "transmit queue on vcan0 is full").count == 2)
        #expect(loop.logs(containing: "accepts frames again").count == 2)
        let metrics = loop.metrics(at: 6)
        #expect(metrics.transmitQueueFullEpisodes == 2)
        #expect(metrics.framesDropped.filter { $0.key.reason == .transmitQueueFull }.values.reduce(0, +) == 7)
        #expect(loop.core.pipeline.provider.counters.framesDroppedBySender.values.reduce(0, +) == 7)
        // Found by Tools/soak (issue 16): the refused frames were counted as sent too.
        #expect(metrics.framesSent.values.reduce(0, +) == sink.accepted.count, "sent counts what the socket took")
    }

    @Test("bus-off is logged and counted once per episode; 'restarted' starts a fresh horizon")
    func busOff() throws {
        let sink = RecordingFrameSink()
        var loop = try SimulatedRunLoop(try daemonConfiguration(), opener: ScriptedOpener([.success(sink)]))
        loop.run(from: 0, to: 3)
        let pathsBefore = loop.metrics(at: 3).newMainPaths
        sink.pendingReads = [
            BusErrorRead(events: [.busOff]),
            BusErrorRead(events: [.busOff, .errorCounters(transmit: 255, receive: 0)]),
            BusErrorRead(), BusErrorRead(events: [.restarted]),
        ]
        loop.run(from: 3, to: 6)
        #expect(loop.logs(containing: "is bus-off").count == 1)
        #expect(loop.logs(containing: "restarted: starting a fresh horizon").count == 1)
        let metrics = loop.metrics(at: 6)
        #expect(metrics.busOffCount == 1)
        #expect(metrics.newMainPaths > pathsBefore, "the restart opens a new main path")
        #expect(!loop.core.bus.faults.isActive(.busOff))
    }

    @Test(
        "an interface going down drops frames as interface_down, is checked once a second, and its return restarts the horizon"
    )
    func interfaceDownAndUp() throws {
        let first = RecordingFrameSink(), second = RecordingFrameSink()
        first.answer = { $0 >= 40 ? .lost(SocketCANError(errno: 100, call: "send", interface: "vcan0")) : nil }
        let opener = ScriptedOpener([
            .success(first), .failure(interfaceDown), .failure(interfaceDown), .success(second),
        ])
        var loop = try SimulatedRunLoop(try daemonConfiguration(), opener: opener)
        loop.run(from: 0, to: 10)
        #expect(first.attempts == 40, "after the lost send the sink is never used again")
        #expect(opener.attempts == 4, "one open attempt per second while down")
        #expect(loop.logs(containing: "CAN interface vcan0 lost").count == 1)
        #expect(loop.logs(containing: "is up again: starting a fresh horizon").count == 1)
        #expect(loop.notifications == ["READY=1"], "READY=1 only for the first opening")
        #expect(!second.accepted.isEmpty)
        let metrics = loop.metrics(at: 10)
        #expect(metrics.canUp)
        #expect(metrics.canDownEpisodes == 1)
        let downDrops = metrics.framesDropped.filter { $0.key.reason == .interfaceDown }.values.reduce(0, +)
        #expect(downDrops == loop.framesOffered - first.accepted.count - second.accepted.count)
        #expect(downDrops > 1)
        #expect(metrics.framesSent.values.reduce(0, +) == first.accepted.count + second.accepted.count)
    }

    @Test("an interface that is down at start is reported once, READY=1 waits for it")
    func downAtStart() throws {
        let opener = ScriptedOpener([.failure(interfaceDown), .failure(interfaceDown)])
        var loop = try SimulatedRunLoop(try daemonConfiguration(), opener: opener)
        loop.run(from: 0, to: 2.5)
        #expect(loop.notifications.isEmpty)
        #expect(loop.logs(containing: "not usable").count == 1)
        #expect(opener.attempts == 3)
        #expect(!loop.metrics(at: 2.5).canUp)
    }

    @Test("a frame with an identifier out of range is dropped and logged, the rest go on")
    func unencodable() throws {
        var core = try DaemonCore(
            configuration: try daemonConfiguration(), path: "t", map: street(), metadata: streetMetadata,
            watchdogInterval: nil, at: 0)
        let sink = RecordingFrameSink()
        let transmitter = CANTransmitter(interface: "vcan0", opener: ScriptedOpener([.success(sink)]))
        _ = transmitter.maintain(&core, at: 0)
        let good = ProviderFrame(
            time: 0, identifier: 0x100, isExtended: false, payload: 0x0102_0304_0506_0708,
            message: .metaData(core.pipeline.provider.configuration.metaData), priority: .vehicle)
        var bad = good
        bad.identifier = 0x800
        let effects = transmitter.send([good, bad, good], core: &core)
        #expect(sink.accepted.count == 2)
        #expect(
            effects.contains { if case .log(.error, let line) = $0 { line.contains("out of range") } else { false } })
    }
}
