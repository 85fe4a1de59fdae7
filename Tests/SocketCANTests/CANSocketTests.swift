#if canImport(Glibc)
    import Glibc
#endif
import CSocketCAN
import Testing
@testable import SocketCAN

/// These tests need no CAN kernel: the socket under test is one end of a Unix SOCK_SEQPACKET
/// pair (which carries 16-byte `can_frame` records exactly like a raw CAN socket), and kernel
/// failures that vcan never produces are injected through the debug-only fault layer.
@Suite("CANSocket without a CAN kernel")
struct CANSocketTests {
    struct Pair: ~Copyable {
        var socket: CANSocket
        let peer: Int32
        let faults: SystemCallFaults
        deinit { _ = Glibc.close(peer) }
    }

    func makePair() throws -> Pair {
        var fds: [Int32] = [-1, -1]
        let result = socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds)
        try #require(result == 0)
        let faults = SystemCallFaults()
        let socket = CANSocket(adopting: fds[0], interface: "vcan0", calls: SystemCalls(faults: faults))
        return Pair(socket: socket, peer: fds[1], faults: faults)
    }

    func readPeer(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = Glibc.recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        return n < 0 ? [] : Array(buffer.prefix(n))
    }

    @Test("kernel structs have the sizes Linux expects")
    func structSizes() {
        #expect(MemoryLayout<can_frame>.size == 16)
        #expect(MemoryLayout<sockaddr_can>.size == 24)
        #expect(csocketcan_can_mtu() == 16)
    }

    @Test("an extended data frame is written as a 16-byte can_frame with the EFF flag")
    func sendEncodesFrame() throws {
        let pair = try makePair()
        let frame = try CANFrame(identifier: #require(CANIdentifier(extended: 0x18FF_1234)), data: [0xDE, 0xAD, 0xBE])
        try pair.socket.send(frame)
        let bytes = readPeer(pair.peer)
        try #require(bytes.count == 16)
        #expect(Array(bytes[0..<4]) == [0x34, 0x12, 0xFF, 0x98])  // 0x18FF1234 | CAN_EFF_FLAG, little endian
        #expect(bytes[4] == 3)
        #expect(Array(bytes[8..<11]) == [0xDE, 0xAD, 0xBE])
    }

    @Test("frames round-trip through send and receive: standard, RTR, error")
    func sendReceiveRoundTrip() throws {
        let pair = try makePair()
        let frames = [
            try CANFrame(identifier: #require(CANIdentifier(standard: 0x123)), data: [1, 2, 3, 4, 5, 6, 7, 8]),
            try CANFrame(remoteRequest: #require(CANIdentifier(standard: 0x42)), length: 2),
            try CANFrame(errorClass: 0x40, data: [0, 0, 0, 0, 0, 0, 0, 0]),
        ]
        for frame in frames {
            try pair.socket.send(frame)
            let bytes = readPeer(pair.peer)
            try #require(bytes.count == 16)
            // Echo the bytes from the peer back into the socket under test.
            _ = bytes.withUnsafeBytes { Glibc.send(pair.peer, $0.baseAddress, 16, 0) }
            let received = try pair.socket.receive(timeoutMilliseconds: 1000)
            #expect(received.frame == frame)
            #expect(received.interface == "vcan0")
        }
    }

    @Test("receive with nothing pending fails with .timedOut")
    func receiveTimesOut() throws {
        let pair = try makePair()
        do {
            _ = try pair.socket.receive(timeoutMilliseconds: 20)
            Issue.record("receive should have timed out")
        } catch {
            #expect(error.code == .timedOut)
        }
    }

    @Test("ENOBUFS from the driver is reported as .transmitQueueFull and nothing is sent")
    func noBuffersIsQueueFull() throws {
        let pair = try makePair()
        pair.faults.inject(.send, errno: ENOBUFS)
        let frame = try CANFrame(identifier: #require(CANIdentifier(standard: 0x100)), data: [1])
        do {
            try pair.socket.send(frame)
            Issue.record("send should have failed")
        } catch {
            #expect(error.code == .transmitQueueFull)
            #expect(error.errno == ENOBUFS)
            #expect(error.description.contains("transmit queue is full"))
        }
        #expect(readPeer(pair.peer).isEmpty)
    }

    @Test("EAGAIN on a non-blocking send is .transmitQueueFull; every 3rd send failing drops exactly those")
    func nonBlockingDropPolicy() throws {
        let pair = try makePair()
        pair.faults.inject(.send, errno: EAGAIN, period: 3)
        let frame = try CANFrame(identifier: #require(CANIdentifier(standard: 0x100)), data: [1])
        var dropped = 0
        for _ in 0..<9 {
            do { try pair.socket.sendNonBlocking(frame) } catch {
                #expect(error.code == .transmitQueueFull)
                dropped += 1
            }
        }
        #expect(dropped == 3)
        var delivered = 0
        while readPeer(pair.peer).count == 16 { delivered += 1 }
        #expect(delivered == 6)
    }

    @Test(
        "a full queue is retried with backoff: sent once it drains, dropped after the last retry, other errors thrown")
    func retryWhileFull() throws {
        let frame = try CANFrame(identifier: #require(CANIdentifier(standard: 0x100)), data: [1])
        let drains = try makePair()
        drains.faults.inject(.send, errno: ENOBUFS, limit: 3)
        #expect(try drains.socket.send(frame, retryingWhileFull: 5))
        #expect(drains.faults.attempts(of: .send) == 4)
        #expect(readPeer(drains.peer).count == 16)

        let stuck = try makePair()
        stuck.faults.inject(.send, errno: EAGAIN)
        #expect(try !stuck.socket.send(frame, retryingWhileFull: 2))
        #expect(stuck.faults.attempts(of: .send) == 3)
        #expect(try !stuck.socket.send(frame, retryingWhileFull: 0))
        #expect(stuck.faults.attempts(of: .send) == 4)
        #expect(readPeer(stuck.peer).isEmpty)

        let down = try makePair()
        down.faults.inject(.send, errno: ENETDOWN)
        #expect(throws: SocketCANError.self) { try down.socket.send(frame, retryingWhileFull: 5) }
        #expect(down.faults.attempts(of: .send) == 1)
    }

    @Test("ENETDOWN is .networkDown with advice to bring the interface up")
    func networkDown() throws {
        let pair = try makePair()
        pair.faults.inject(.send, errno: ENETDOWN)
        let frame = try CANFrame(identifier: #require(CANIdentifier(standard: 1)), data: [])
        do {
            try pair.socket.send(frame)
            Issue.record("send should have failed")
        } catch {
            #expect(error.code == .networkDown)
            #expect(error.description.contains("ip link set vcan0 up"))
        }
    }

    @Test("EINTR is retried transparently and the frame is sent once")
    func interruptedCallIsRetried() throws {
        let pair = try makePair()
        pair.faults.inject(.send, errno: EINTR, limit: 2)
        try pair.socket.send(try CANFrame(identifier: #require(CANIdentifier(standard: 7)), data: [9]))
        #expect(pair.faults.attempts(of: .send) == 3)
        #expect(readPeer(pair.peer).count == 16)
        #expect(readPeer(pair.peer).isEmpty)
    }

    @Test("opening an unknown interface says which one and how to list interfaces")
    func unknownInterface() {
        do {
            _ = try CANSocket(interface: "nosuchcan7")
            Issue.record("open should have failed")
        } catch {
            #expect(error.code == .noSuchInterface)
            #expect(error.description.contains("'nosuchcan7'"))
        }
        do {
            _ = try CANSocket(interface: "a-name-that-is-far-too-long")
            Issue.record("open should have failed")
        } catch {
            #expect(error.code == .invalidInterfaceName)
        }
    }

    @Test("a kernel without CAN (EAFNOSUPPORT) points the user at Tools/vcan-run")
    func kernelWithoutCAN() {
        let faults = SystemCallFaults()
        faults.inject(.socket, errno: EAFNOSUPPORT)
        do {
            _ = try CANSocket(interface: "lo", calls: SystemCalls(faults: faults))
            Issue.record("open should have failed")
        } catch {
            #expect(error.code == .noCANSupport)
            #expect(error.description.contains("Tools/vcan-run"))
        }
    }

    @Test("receive filters encode the frame format and the inversion flag")
    func filterEncoding() throws {
        let standard = CANFilter(identifier: try #require(CANIdentifier(standard: 0x120)), mask: 0x7F0)
        #expect(standard.kernelFilter.can_id == 0x120)
        #expect(standard.kernelFilter.can_mask == 0x7F0 | CAN_EFF_FLAG | CAN_RTR_FLAG)
        let inverted = CANFilter(identifier: try #require(CANIdentifier(extended: 0x1000)), inverted: true)
        #expect(inverted.kernelFilter.can_id == 0x1000 | CAN_EFF_FLAG | CAN_INV_FILTER)
    }
}
