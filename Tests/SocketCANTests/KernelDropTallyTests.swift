import Testing

@testable import SocketCAN

@Suite("kernel drop tally")
struct KernelDropTallyTests {
    static func frame(count: UInt32?) throws -> ReceivedCANFrame {
        let identifier = try #require(CANIdentifier(standard: 0x7FF))
        return ReceivedCANFrame(
            frame: try CANFrame(identifier: identifier, data: [1]), interface: "vcan0",
            timestampMicroseconds: nil, kernelDropCount: count)
    }

    @Test("frames without a count or with the same one add nothing; a higher count adds the difference")
    func countsTheDifference() throws {
        var tally = KernelDropTally()
        #expect(tally.newDrops(before: try Self.frame(count: nil)) == 0)
        #expect(tally.newDrops(before: try Self.frame(count: 250)) == 250)
        #expect(tally.newDrops(before: try Self.frame(count: 250)) == 0)
        #expect(tally.newDrops(before: try Self.frame(count: nil)) == 0 && tally.total == 250)
        #expect(tally.newDrops(before: try Self.frame(count: 253)) == 3 && tally.total == 253)
    }

    @Test("the kernel's counter wrapping at 2^32 still gives the frames dropped since")
    func wraps() throws {
        var tally = KernelDropTally()
        _ = tally.newDrops(before: try Self.frame(count: UInt32.max - 1))
        #expect(tally.newDrops(before: try Self.frame(count: 3)) == 5 && tally.total == 3)
    }
}
