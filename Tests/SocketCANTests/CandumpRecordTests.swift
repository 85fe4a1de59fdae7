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
