import Testing
@testable import SocketCAN

@Suite("candump -L log text")
struct CandumpLogTests {
    @Test("standard, extended, RTR and error frames survive format → parse unchanged")
    func roundTrip() throws {
        let records = [
            CandumpRecord(
                timestampMicroseconds: 1_700_000_000_000_001, interface: "vcan0",
                frame: try CANFrame(identifier: #require(CANIdentifier(standard: 0x123)), data: [0x11, 0xAB])),
            CandumpRecord(
                timestampMicroseconds: 1_700_000_000_500_000, interface: "can1",
                frame: try CANFrame(
                    identifier: #require(CANIdentifier(extended: 0x1ABC_DEF0)), data: [1, 2, 3, 4, 5, 6, 7, 8])),
            CandumpRecord(
                timestampMicroseconds: 5, interface: "vcan0",
                frame: try CANFrame(remoteRequest: #require(CANIdentifier(standard: 0x7FF)), length: 4)),
            CandumpRecord(
                timestampMicroseconds: 6, interface: "vcan0",
                frame: try CANFrame(errorClass: 0x40, data: [0, 0, 0, 0, 0, 0, 0, 0])),
            CandumpRecord(
                timestampMicroseconds: 7, interface: "vcan0",
                frame: try CANFrame(identifier: #require(CANIdentifier(standard: 0)), data: [])),
        ]
        let text = CandumpLog.format(records)
        #expect(
            text.split(separator: "\n") == [
                "(1700000000.000001) vcan0 123#11AB",
                "(1700000000.500000) can1 1ABCDEF0#0102030405060708",
                "(0.000005) vcan0 7FF#R4",
                "(0.000006) vcan0 20000040#0000000000000000",
                "(0.000007) vcan0 000#",
            ])
        let parsed = CandumpLog.parse(text: text)
        #expect(parsed.errors.isEmpty)
        #expect(parsed.records == records)
    }

    @Test("digits with a combining mark and fullwidth hex digits are errors, not crashes")
    func nonASCIIDigits() {
        #expect(throws: CandumpParseError.self) {
            try CandumpLog.parse(line: "(1.5\u{301}) vcan0 123#00", lineNumber: 1)
        }
        #expect(throws: CandumpParseError.self) {
            try CandumpLog.parse(line: "(1.5) vcan0 123#0\u{FF11}", lineNumber: 1)
        }
        #expect(throws: CandumpParseError.self) {
            try CandumpLog.parse(line: "(1.5) vcan0 12\u{FF13}#00", lineNumber: 1)
        }
    }

    @Test("output of the real candump tool parses, including lowercase hex and nanosecond stamps")
    func readsCanUtilsOutput() throws {
        let record = try #require(try CandumpLog.parse(line: "(1795358596.701956) vcan0 123#11", lineNumber: 1))
        #expect(record.timestampMicroseconds == 1_795_358_596_701_956)
        #expect(record.frame.data == [0x11])
        let nanos = try #require(try CandumpLog.parse(line: "(1.123456789) vcan0 12345678#aa", lineNumber: 1))
        #expect(nanos.timestampMicroseconds == 1_123_456)
        #expect(nanos.frame.identifier == CANIdentifier(extended: 0x1234_5678))
    }

    @Test("malformed lines are reported with their line numbers and good lines are kept")
    func malformedLines() {
        let text = """
            (1.000000) vcan0 123#11
            garbage
            (2.000000) vcan0
            (3.000000) vcan0 123#112
            (4.000000) vcan0 800#00
            (5.000000) vcan0 123#001122334455667788
            # a comment

            (x.000000) vcan0 123#11
            (6.000000) vcan0 12#11
            (7.000000) vcan0 123##011
            (8.000000) vcan0 456#R9
            (9.000000) vcan0 456#01
            """
        let result = CandumpLog.parse(text: text)
        #expect(result.records.map(\.timestampMicroseconds) == [1_000_000, 9_000_000])
        #expect(result.errors.map(\.lineNumber) == [2, 3, 4, 5, 6, 9, 10, 11, 12])
        #expect(result.errors.first == .badTimestamp(line: 2, text: "garbage"))
        #expect(result.errors.count > 7 && result.errors[1].description.hasPrefix("line 3:"))
        #expect(result.errors.count > 7 && result.errors[6].description.contains("3 (standard) or 8 (extended)"))
        #expect(result.errors.count > 7 && result.errors[7].description.contains("CAN FD"))
    }

    @Test("fullwidth or other non-ASCII hex digits are a reported error, not a crash (issue 16)")
    func nonASCIIHexDigits() {
        let text = """
            (0.000000) vcan0 361#ＡＡ
            (0.100000) vcan0 ３61#AA
            (0.200000) vcan0 361#A٣
            (0.300000) vcan0 361#AA
            """
        let result = CandumpLog.parse(text: text)
        #expect(result.records.map(\.timestampMicroseconds) == [300_000])
        #expect(result.errors.map(\.lineNumber) == [1, 2, 3])
    }

    @Test(
        "a timestamp too large for microseconds in 64 bits is a bad timestamp, not a wrapped time (found by Tools/fuzz)"
    )
    func overflowingTimestamp() throws {
        // The fuzzer's input: these seconds wrapped to a negative time, and printing the record
        // back trapped ("Negative count not allowed").
        let text = """
            (22222222222222222220.030000) vcan0 250#4000000804F00000
            (9223372036854.775807) vcan0 250#4000000804F00000
            (9223372036854.775808) vcan0 250#4000000804F00000
            """
        let result = CandumpLog.parse(text: text)
        #expect(result.errors.map(\.lineNumber) == [1, 3])
        #expect(result.records.map(\.timestampMicroseconds) == [Int64.max])
        #expect(result.records.first?.line.hasPrefix("(9223372036854.775807) vcan0 250#") == true)
        // A negative time made in code prints as one.
        let frame = try CANFrame(identifier: try #require(CANIdentifier(standard: 0x250)), data: [1])
        #expect(
            CandumpRecord(timestampMicroseconds: -1_500_000, interface: "vcan0", frame: frame).line
                == "(-1.500000) vcan0 250#01")
    }
}
