import Testing
@testable import SocketCAN

@Test func candumpLineRoundTripsStandardExtendedAndRTR() throws {
    let text = """
    (1700000000.123456) vcan0 361#0011223344556677
    (1700000000.200000) vcan0 12345678#AA
    (0.000001) can1 250#R
    (0.000002) can1 250#R8
    (0.000003) vcan0 7FF#

    """
    let (records, errors) = CandumpLog.parse(text: text)
    #expect(errors.isEmpty)
    #expect(records.count == 5)
    #expect(records[0].timestampMicroseconds == 1_700_000_000_123_456)
    #expect(records[0].frame.identifier == CANIdentifier(standard: 0x361))
    #expect(records[0].frame.data == [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77])
    #expect(records[1].frame.identifier == CANIdentifier(extended: 0x1234_5678))
    #expect(records[3].frame.isRemoteTransmissionRequest && records[3].frame.dataLengthCode == 8)
    #expect(records[4].frame.data.isEmpty)
    #expect(CandumpLog.format(records) == text)
}

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

@Test func malformedLinesAreReportedWithLineNumbersAndSkipped() {
    let text = """
    (1.000000) vcan0 123#0011
    1.000000 vcan0 123#00
    (1.000000) vcan0 800#00
    (1.000000) vcan0 123#001
    (1.000000) vcan0 123#001122334455667788
    (1.000000) vcan0
    (1.000000) vcan0 1234#00
    # a comment
    (2.000000) vcan0 124#
    """
    let (records, errors) = CandumpLog.parse(text: text)
    #expect(records.map(\.frame.identifier.value) == [0x123, 0x124])
    #expect(errors.map(\.lineNumber) == [2, 3, 4, 5, 6, 7])
    #expect(errors[1].description.contains("standard identifier above 7FF"))
}

@Test func framesRejectMoreThanEightBytes() {
    #expect(throws: CANFrame.FormatError.dataTooLong(9)) {
        try CANFrame(identifier: CANIdentifier(standard: 1)!, data: Array(repeating: 0, count: 9))
    }
    #expect(CANIdentifier(standard: 0x800) == nil)
    #expect(CANIdentifier(extended: 0x2000_0000) == nil)
}
