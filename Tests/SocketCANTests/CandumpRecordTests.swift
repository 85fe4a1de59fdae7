import Testing
@testable import SocketCAN

@Test func shorterFractionsAreMicroseconds() throws {
    let record = try #require(try CandumpLog.parse(line: "(12.5) vcan0 123#01", lineNumber: 1))
    #expect(record.timestampMicroseconds == 12_500_000)
    #expect(record.line == "(12.500000) vcan0 123#01")
}

@Test func errorFramesKeepTheErrorFlag() throws {
    let record = try #require(try CandumpLog.parse(line: "(1.000000) can0 20000040#0000000000000000", lineNumber: 1))
    #expect(record.frame.isErrorFrame)
    #expect(record.frame.identifier.value == 0x40)  // CAN_ERR_BUSOFF
    #expect(record.line == "(1.000000) can0 20000040#0000000000000000")
}

@Test func framesRejectMoreThanEightBytes() {
    #expect(throws: CANFrame.FormatError.dataTooLong(9)) {
        try CANFrame(identifier: CANIdentifier(standard: 1)!, data: Array(repeating: 0, count: 9))
    }
    #expect(CANIdentifier(standard: 0x800) == nil)
    #expect(CANIdentifier(extended: 0x2000_0000) == nil)
}

@Test("an 8-byte frame made from a data word is the frame made from its bytes, on the wire and in candump")
func dataWordFramesAreTheirBytes() throws {
    let identifier = try #require(CANIdentifier(standard: 0x251))
    let fromWord = CANFrame(identifier: identifier, dataWord: 0x6256_545C_0BA3_BCC3)
    let fromBytes = try CANFrame(identifier: identifier, data: [0x62, 0x56, 0x54, 0x5C, 0x0B, 0xA3, 0xBC, 0xC3])
    #expect(fromWord == fromBytes)
    #expect(fromWord.data == [0x62, 0x56, 0x54, 0x5C, 0x0B, 0xA3, 0xBC, 0xC3])
    #expect(
        CandumpRecord(timestampMicroseconds: 0, interface: "vcan0", frame: fromWord).line
            == "(0.000000) vcan0 251#6256545C0BA3BCC3")
    // What the kernel gets, and what a receiver decodes from it.
    #expect(CANFrame(kernelFrame: fromWord.kernelFrame) == fromBytes)
    // Shorter frames keep only their bytes; a remote request none.
    let short = try CANFrame(identifier: identifier, data: [0xAB, 0x01])
    #expect(short.data == [0xAB, 0x01] && short.dataCount == 2)
    #expect(try CANFrame(remoteRequest: identifier, length: 8).data.isEmpty)
}
