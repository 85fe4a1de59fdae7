import Testing
@testable import ADASISv2
import TestSupport

@Test(arguments: [MessageType.position, .segment, .stub, .profileShort, .profileLong, .metaData])
func everyLayoutFillsExactly64Bits(type: MessageType) throws {
    let fields = try #require(MessageLayout.fields(of: type))
    #expect(fields.reduce(0) { $0 + $1.bits } == 64)
}

@Test func handComputedSegmentFrame() throws {
    // SEGMENT, Offset 100, counter 1, path 8, Tunnel 0, Bridge 0, BuiltUp 1, R 0, U 0, Prob 31,
    // FRC 3, PoCR 0, CI 0, FoW 3, speed code 11 (50 km/h), type 1, res 0, Divided 0, opp 1, drive 1:
    // 010 0000001100100 01 001000 | 00 00 01 0 0 11111 011 00 00 0011 01011 001 0 00 01 001
    // = 0100 0000 0110 0100 0100 1000 0000 0100 1111 1011 0000 0011 0101 1001 0000 1001
    let bytes = try FieldPacking.pack(
        .segment,
        [
            "Offset": 100, "CyclicCounter": 1, "PathIndex": 8, "BuiltUpArea": 1, "RelativeProbability": 31,
            "FunctionalRoadClass": 3, "FormOfWay": 3, "EffectiveSpeedLimit": 11, "EffectiveSpeedLimitType": 1,
            "NumberOfLanesOppositeDirection": 1, "NumberOfLanesDrivingDirection": 1,
        ])
    #expect(bytes == [0x40, 0x64, 0x48, 0x04, 0xFB, 0x03, 0x59, 0x09])
    let (type, fields) = try FieldPacking.unpack(bytes)
    #expect(type == .segment)
    #expect(fields["Offset"] == 100 && fields["PathIndex"] == 8 && fields["EffectiveSpeedLimit"] == 11)
    #expect(
        try FieldPacking.pack(
            .segment,
            [
                "Offset": 100, "CyclicCounter": 1, "PathIndex": 8, "BuiltUpArea": 1,
                "RelativeProbability": 31, "FunctionalRoadClass": 3, "FormOfWay": 3,
                "EffectiveSpeedLimit": 11, "EffectiveSpeedLimitType": 1,
                "NumberOfLanesOppositeDirection": 1, "NumberOfLanesDrivingDirection": 1,
            ],
            byteOrder: .littleEndian) == bytes.reversed())
}

@Test func outOfRangeValuesAreTypedErrorsNotTruncation() {
    #expect(throws: FieldCodingError.valueOutOfRange(field: "Offset", value: 8192, maximum: 8191)) {
        try FieldPacking.pack(.position, ["Offset": 8192])
    }
    #expect(throws: FieldCodingError.unknownField("Tunnel")) { try FieldPacking.pack(.position, ["Tunnel": 1]) }
    #expect(throws: FieldCodingError.wrongLength(7)) { try FieldPacking.unpack([0, 0, 0, 0, 0, 0, 0]) }
    #expect(throws: FieldCodingError.unsupportedMessageType(7)) {
        try FieldPacking.unpack([0xE0, 0, 0, 0, 0, 0, 0, 0])
    }
}

@Test func randomFieldValuesRoundTripAndRandomBytesNeverTrap() throws {
    var random = SplitMix64(seed: 2026)
    for _ in 0..<5000 {
        let type = [MessageType.position, .segment, .stub, .profileShort, .profileLong, .metaData].randomElement(
            using: &random)!
        var values: [String: UInt64] = [:]
        for field in MessageLayout.fields(of: type)! where !field.isReserved && field.name != "MessageType" {
            values[field.name] = UInt64.random(in: 0...((1 << UInt64(field.bits)) - 1), using: &random)
        }
        let order = ByteOrder.allCases.randomElement(using: &random)!
        let (decodedType, decoded) = try FieldPacking.unpack(
            try FieldPacking.pack(type, values, byteOrder: order), byteOrder: order)
        #expect(decodedType == type)
        values["MessageType"] = UInt64(type.rawValue)
        #expect(decoded == values)
        let bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
        _ = try? FieldPacking.unpack(bytes)
    }
}
