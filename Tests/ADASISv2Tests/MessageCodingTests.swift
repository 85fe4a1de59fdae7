import Testing
@testable import ADASISv2

@Suite struct MessageCodingTests {
    @Test func handComputedPositionFrame() throws {
        // POSITION, Offset 1000, counter 2, path 8, index 0, probability 30, age 20 (100 ms), reserved 0,
        // confidence 1, lane 4 (right-most), speed 214 (30 m/s), heading 0:
        // 001 0001111101000 10 001000 | 00 11110 000010100 0 001 100 011010110 00000000
        // = 0010 0011 1110 1000 1000 1000 | 0011 1100 0001 0100 0001 1000 1101 0110 0000 0000
        let bytes: [UInt8] = [0x23, 0xE8, 0x88, 0x3C, 0x14, 0x18, 0xD6, 0x00]
        let expected = PositionMessage(
            offset: 1000, pathIndex: 8, cyclicCounter: 2, positionIndex: 0,
            positionProbability: 30, positionAge: 20, positionConfidence: 1,
            currentLane: .rightMost, speed: 214, relativeHeading: 0)
        #expect(try ADASISMessage.decode(bytes) == .position(expected))
        #expect(try ADASISMessage.position(expected).encode() == bytes)
        #expect(try ADASISMessage.position(expected).encode(byteOrder: .littleEndian) == bytes.reversed())
        #expect(try ADASISMessage.decode(bytes.reversed(), byteOrder: .littleEndian) == .position(expected))
        #expect(expected.speedMetresPerSecond == 30)
        #expect(expected.ageMilliseconds == 100)
        #expect(expected.probabilityPercent == 100)
    }

    @Test func handComputedMetaDataFrame() throws {
        // META-DATA, provider 6 (OSM), country 246 (Finland), counter 1, version 2.0.4, hardware 0,
        // right-hand traffic, region 0, map 2024 Q2, reserved 0, km/h:
        // 110 110 0011110110 01 10 100 000000000 1 000000000000000 01 011000 000 0 0000
        // = 1101 1000 1111 0110 0110 1000 0000 0000 1000 0000 0000 0000 0101 1000 0000 0000
        let bytes: [UInt8] = [0xD8, 0xF6, 0x68, 0x00, 0x80, 0x00, 0x58, 0x00]
        let expected = MetaDataMessage(
            countryCode: 246, drivingSide: .right, speedUnits: .kilometresPerHour,
            mapProvider: .other, cyclicCounter: 1, mapVersionYear: 24, mapVersionQuarter: 1)
        #expect(try ADASISMessage.decode(bytes) == .metaData(expected))
        #expect(try ADASISMessage.metaData(expected).encode() == bytes)
        #expect(expected.protocolVersion == "2.0.4")
        #expect(expected.mapYear == 2024)
    }

    @Test func handComputedProfileShortFrame() throws {
        // PROFILE SHORT, Offset 8190, counter 3, path 9, curvature, control point 0, retransmission 1,
        // update 0, accuracy 0, Distance1 50, Value0 593 (1000 m right), Value1 641 (500 m right):
        // 100 1111111111110 11 001001 | 00001 0 1 0 | 00 0000110010 1001010001 1010000001
        // = 1001 1111 1111 1110 1100 1001 0000 1010 0000 0011 0010 1001 0100 0110 1000 0001
        let bytes: [UInt8] = [0x9F, 0xFE, 0xC9, 0x0A, 0x03, 0x29, 0x46, 0x81]
        let expected = ProfileShortMessage(
            offset: 8190, pathIndex: 9, profileType: .curvature,
            value0: ValueCoding.curvatureCode(1.0 / 1000), distance1: 50,
            value1: ValueCoding.curvatureCode(1.0 / 500), cyclicCounter: 3,
            isRetransmission: true, accuracy: .highest)
        #expect(expected.value0 == 593 && expected.value1 == 641)
        #expect(try ADASISMessage.decode(bytes) == .profileShort(expected))
        #expect(try ADASISMessage.profileShort(expected).encode() == bytes)
    }

    @Test func everyMessageTypeEncodesToEightBytesWithItsTypeBits() throws {
        let messages: [ADASISMessage] = [
            .position(PositionMessage(offset: 0, pathIndex: 8)), .segment(SegmentMessage(offset: 0, pathIndex: 8)),
            .stub(StubMessage(offset: 0, pathIndex: 8, subPathIndex: 9)),
            .profileShort(ProfileShortMessage(offset: 0, pathIndex: 8, profileType: .slopeStep, value0: 511)),
            .profileLong(ProfileLongMessage(offset: 0, pathIndex: 8, profileType: .linkIdentifier, value: 42)),
            .metaData(MetaDataMessage()),
        ]
        for message in messages {
            let bytes = try message.encode()
            #expect(bytes.count == 8)
            #expect(bytes[0] >> 5 == message.type.rawValue)
            #expect(try ADASISMessage.decode(bytes) == message)
        }
    }

    @Test func curvatureCheckPointsTravelThroughAProfileShort() throws {
        for (radius, code) in [(1000.0, UInt16(593)), (500, 641), (100, 770), (-100, 252)] {
            let message = ProfileShortMessage(
                offset: 10, pathIndex: 8, profileType: .curvature,
                value0: ValueCoding.curvatureCode(1 / radius))
            guard
                case .profileShort(let decoded) = try ADASISMessage.decode(
                    try ADASISMessage.profileShort(message).encode())
            else { Issue.record("not a PROFILE SHORT"); continue }
            #expect(decoded.value0 == code)
            let curvature = try #require(ValueCoding.curvature(code: decoded.value0))
            // Within half a quantisation step: the band of |c| < 0.01984 1/m has steps of 16e-5 1/m.
            #expect(abs(curvature - 1 / radius) <= 8e-5 + 1e-12)
        }
    }

    @Test func wrongLengthAndUnsupportedTypesAreTypedErrors() {
        #expect(throws: FieldCodingError.wrongLength(9)) { try ADASISMessage.decode(Array(repeating: 0x20, count: 9)) }
        #expect(throws: FieldCodingError.wrongLength(0)) { try ADASISMessage.decode([]) }
        #expect(throws: FieldCodingError.unsupportedMessageType(0)) {
            try ADASISMessage.decode([0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: FieldCodingError.unsupportedMessageType(7)) {
            try ADASISMessage.decode([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test func outOfRangeValuesAreTypedErrorsNamingTheField() {
        #expect(throws: FieldCodingError.valueOutOfRange(field: "Offset", value: 8192, maximum: 8191)) {
            try ADASISMessage.segment(SegmentMessage(offset: 8192, pathIndex: 8)).encode()
        }
        #expect(throws: FieldCodingError.valueOutOfRange(field: "PathIndex", value: 64, maximum: 63)) {
            try ADASISMessage.position(PositionMessage(offset: 0, pathIndex: 64)).encode()
        }
        #expect(throws: FieldCodingError.valueOutOfRange(field: "ProfileType", value: 32, maximum: 31)) {
            try ADASISMessage.profileShort(
                ProfileShortMessage(
                    offset: 0, pathIndex: 8, profileType: .systemSpecific(32),
                    value0: 0)
            ).encode()
        }
        #expect(throws: FieldCodingError.valueOutOfRange(field: "CountryCode", value: 1024, maximum: 1023)) {
            try ADASISMessage.metaData(MetaDataMessage(countryCode: 1024)).encode()
        }
        #expect(throws: FieldCodingError.valueOutOfRange(field: "SubPathIndex", value: 64, maximum: 63)) {
            try ADASISMessage.stub(StubMessage(offset: 0, pathIndex: 8, subPathIndex: 64)).encode()
        }
        #expect(throws: FieldCodingError.valueOutOfRange(field: "Value1", value: 1024, maximum: 1023)) {
            try ADASISMessage.profileShort(
                ProfileShortMessage(
                    offset: 0, pathIndex: 8, profileType: .curvature,
                    value0: 0, value1: 1024)
            ).encode()
        }
    }
}
