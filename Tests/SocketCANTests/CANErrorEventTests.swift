import Testing
import SocketCAN

@Suite("kernel error frames")
struct CANErrorEventTests {
    @Test("bus-off with error counters decodes both conditions")
    func busOff() throws {
        // CAN_ERR_BUSOFF | CAN_ERR_CNT, tx counter 255, rx counter 12
        let frame = try CANFrame(errorClass: 0x40 | 0x200, data: [0, 0, 0, 0, 0, 0, 255, 12])
        #expect(CANErrorEvent.decode(frame) == [.busOff, .errorCounters(transmit: 255, receive: 12)])
    }

    @Test("controller status byte distinguishes warning and passive, receive and transmit")
    func controllerStatus() throws {
        // CAN_ERR_CRTL, data[1] = TX_WARNING (0x08) | RX_PASSIVE (0x10)
        let frame = try CANFrame(errorClass: 0x04, data: [0, 0x18, 0, 0, 0, 0, 0, 0])
        #expect(
            CANErrorEvent.decode(frame) == [
                .errorWarning(receive: false, transmit: true),
                .errorPassive(receive: true, transmit: false),
            ])
    }

    @Test("restart, TX timeout and missing ACK; data frames decode to nothing")
    func otherClasses() throws {
        let frame = try CANFrame(errorClass: 0x100 | 0x01 | 0x20, data: [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(CANErrorEvent.decode(frame) == [.transmitTimeout, .noAcknowledgement, .restarted])
        let data = try CANFrame(identifier: #require(CANIdentifier(standard: 0x40)), data: [1])
        #expect(CANErrorEvent.decode(data).isEmpty)
    }

    @Test("an error frame read from a candump log decodes (short payloads are zero-padded)")
    func fromCandump() throws {
        let record = try #require(try CandumpLog.parse(line: "(1.000000) can0 20000040#", lineNumber: 1))
        #expect(CANErrorEvent.decode(record.frame) == [.busOff])
    }
}
