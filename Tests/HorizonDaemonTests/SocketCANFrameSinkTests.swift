#if canImport(Glibc)
    import Glibc
#endif
import CSocketCAN
import Testing
@testable import HorizonDaemon
@testable import SocketCAN

/// Opens one real ``CANSocket`` on one end of a Unix stream socket pair (which carries the 16-byte
/// `can_frame` records whole, like a raw CAN socket), with system-call faults injected through
/// SocketCAN's test seam. The test drains the peer after every wake-up, as a bus would, so the
/// pair's own buffer never fills.
private final class SocketPairOpener: FrameSinkOpener {
    let faults = SystemCallFaults()
    let peer: Int32
    private var descriptor: Int32?
    /// Every frame handed to the opened sink, in order, whatever became of it.
    private(set) var attempted: [CANFrame] = []

    init() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        descriptor = fds[0]
        peer = fds[1]
    }

    deinit { close(peer) }

    func open(interface: String) throws(SocketCANError) -> any FrameSink {
        guard let fd = descriptor else { throw interfaceDown }
        descriptor = nil
        let real = SocketCANFrameSink(CANSocket(adopting: fd, interface: interface, calls: SystemCalls(faults: faults)))
        return AttemptRecordingSink(real) { [unowned self] in self.attempted.append($0) }
    }

    /// Every frame that arrived at the peer so far, decoded.
    private(set) var received: [CANFrame] = []

    /// Reads the frames waiting at the peer into ``received``.
    func drain() {
        var raw = can_frame()
        while recv(peer, &raw, MemoryLayout<can_frame>.size, Int32(MSG_DONTWAIT)) == MemoryLayout<can_frame>.size {
            if let frame = CANFrame(kernelFrame: raw) { received.append(frame) }
        }
    }
}

/// Passes everything to a real sink, telling `record` about each frame first.
private final class AttemptRecordingSink: FrameSink {
    let real: any FrameSink
    let record: (CANFrame) -> Void

    init(_ real: any FrameSink, record: @escaping (CANFrame) -> Void) {
        self.real = real
        self.record = record
    }

    func send(_ frame: CANFrame) -> FrameSendResult {
        record(frame)
        return real.send(frame)
    }

    func readErrorEvents(limit: Int) -> BusErrorRead { real.readErrorEvents(limit: limit) }
}

@Suite("the daemon on a real CANSocket (socket pair, injected faults)")
struct SocketCANFrameSinkTests {
    // The limit catches a send that blocks (it would hang for ever); alone the test takes well
    // under a second, but beside the QEMU/TCG kernels of the vcan suites on two cores it once
    // (stop 28) needed more than the minute it had.
    @Test(
        "a full TX queue drops exactly the failed frames and never blocks: every 4th send fails with ENOBUFS",
        .timeLimit(.minutes(5)))
    func transmitQueueFull() throws {
        let clean = try SocketPairOpener()
        var reference = try SimulatedRunLoop(try daemonConfiguration(), opener: clean)
        reference.run(from: 0, to: 20, afterWake: clean.drain)
        let all = clean.received
        try #require(
            all.count == reference.framesOffered && all.count > 100,
            "\(all.count) of \(reference.framesOffered) frames arrived")

        let faulty = try SocketPairOpener()
        faulty.faults.inject(.send, errno: ENOBUFS, period: 4)
        var loop = try SimulatedRunLoop(try daemonConfiguration(), opener: faulty)
        loop.run(from: 0, to: 20, afterWake: faulty.drain)
        let sent = faulty.received
        #expect(faulty.faults.attempts(of: .send) == loop.framesOffered)
        #expect(faulty.attempted.count == loop.framesOffered)
        // Exactly the frames whose send was not the 4th, 8th, … went out, in order; the stream
        // before the first drop is the undisturbed one.
        #expect(sent == faulty.attempted.enumerated().filter { ($0.offset + 1) % 4 != 0 }.map(\.element))
        #expect(Array(sent.prefix(3)) == Array(all.prefix(3)))
        let metrics = loop.metrics(at: 20)
        let dropped = metrics.framesDropped.filter { $0.key.reason == .transmitQueueFull }.values.reduce(0, +)
        #expect(dropped == loop.framesOffered / 4)
        #expect(loop.core.pipeline.provider.counters.framesDroppedBySender.values.reduce(0, +) == dropped)
        #expect(metrics.transmitQueueFullEpisodes == dropped, "each single refusal is its own episode")
        #expect(loop.logs(containing: "transmit queue on vcan0 is full").count == dropped)
    }

    @Test("a send failing with ENETDOWN loses the socket; error frames are read and decoded")
    func lostAndErrorFrames() throws {
        let opener = try SocketPairOpener()
        let sink = try opener.open(interface: "vcan0")
        var errorFrame = try CANFrame(errorClass: 0x40, data: [0, 0, 0, 0, 0, 0, 0, 0]).kernelFrame  // CAN_ERR_BUSOFF
        #expect(send(opener.peer, &errorFrame, MemoryLayout<can_frame>.size, 0) == MemoryLayout<can_frame>.size)
        let read = sink.readErrorEvents(limit: 8)
        #expect(read.events.contains(.busOff))
        #expect(read.lost == nil)
        opener.faults.inject(.send, errno: ENETDOWN)
        let frame = try CANFrame(identifier: try #require(CANIdentifier(standard: 0x100)), data: [1])
        guard case .lost(let error) = sink.send(frame) else {
            Issue.record("ENETDOWN must lose the socket")
            return
        }
        #expect(error.code == .networkDown)
    }
}
