import Testing
@testable import ADASISv2

/// One numeric field of a typed message: its reference name, width and where it is stored.
private struct NumericField<Message> {
    let name: String
    let maximum: UInt64
    let fitsAboveMaximum: Bool
    let set: (inout Message, UInt64) -> Void

    init<T: FixedWidthInteger>(_ name: String, bits: Int, _ keyPath: WritableKeyPath<Message, T>) {
        self.name = name
        maximum = (1 << UInt64(bits)) - 1
        fitsAboveMaximum = maximum < UInt64(T.max)
        set = { $0[keyPath: keyPath] = T(truncatingIfNeeded: $1) }
    }
}

private func head<M>(
    _ offset: WritableKeyPath<M, UInt16>, _ counter: WritableKeyPath<M, UInt8>,
    _ path: WritableKeyPath<M, UInt8>
) -> [NumericField<M>] {
    [
        NumericField("Offset", bits: 13, offset), NumericField("CyclicCounter", bits: 2, counter),
        NumericField("PathIndex", bits: 6, path),
    ]
}

/// Checks every numeric field at 0 and at its maximum (round trip, raw bits) and one above (typed error).
private func checkLimits<M>(_ base: M, _ fields: [NumericField<M>], wrap: (M) -> ADASISMessage) throws {
    for field in fields {
        for value in [0, field.maximum] {
            var message = base
            field.set(&message, value)
            let bytes = try wrap(message).encode()
            #expect(try ADASISMessage.decode(bytes) == wrap(message), "\(field.name) = \(value)")
            #expect(try FieldPacking.unpack(bytes).fields[field.name] == value, "\(field.name) = \(value)")
        }
        if field.fitsAboveMaximum {
            var message = base
            field.set(&message, field.maximum + 1)
            #expect(
                throws: FieldCodingError.valueOutOfRange(
                    field: field.name, value: field.maximum + 1,
                    maximum: field.maximum)
            ) { try wrap(message).encode() }
        }
    }
}

@Suite struct MessageFieldLimitTests {
    @Test func positionFieldsAtTheirLimits() throws {
        try checkLimits(
            PositionMessage(offset: 5, pathIndex: 8),
            head(\.offset, \.cyclicCounter, \.pathIndex) + [
                NumericField("PositionIndex", bits: 2, \.positionIndex),
                NumericField("PositionProbability", bits: 5, \.positionProbability),
                NumericField("PositionAge", bits: 9, \.positionAge),
                NumericField("PositionConfidence", bits: 3, \.positionConfidence),
                NumericField("Speed", bits: 9, \.speed), NumericField("RelativeHeading", bits: 8, \.relativeHeading),
            ], wrap: ADASISMessage.position)
    }

    @Test func segmentFieldsAtTheirLimits() throws {
        try checkLimits(
            SegmentMessage(offset: 5, pathIndex: 8),
            head(\.offset, \.cyclicCounter, \.pathIndex) + [
                NumericField("RelativeProbability", bits: 5, \.relativeProbability),
                NumericField("EffectiveSpeedLimit", bits: 5, \.effectiveSpeedLimit),
                NumericField("NumberOfLanesOppositeDirection", bits: 2, \.numberOfLanesOppositeDirection),
                NumericField("NumberOfLanesDrivingDirection", bits: 3, \.numberOfLanesDrivingDirection),
            ], wrap: ADASISMessage.segment)
    }

    @Test func stubFieldsAtTheirLimits() throws {
        try checkLimits(
            StubMessage(offset: 5, pathIndex: 8, subPathIndex: 9),
            head(\.offset, \.cyclicCounter, \.pathIndex) + [
                NumericField("SubPathIndex", bits: 6, \.subPathIndex),
                NumericField("RelativeProbability", bits: 5, \.relativeProbability),
                NumericField("TurnAngle", bits: 8, \.turnAngle),
                NumericField("NumberOfLanesOppositeDirection", bits: 2, \.numberOfLanesOppositeDirection),
                NumericField("NumberOfLanesDrivingDirection", bits: 3, \.numberOfLanesDrivingDirection),
            ], wrap: ADASISMessage.stub)
    }

    @Test func profileFieldsAtTheirLimits() throws {
        try checkLimits(
            ProfileShortMessage(offset: 5, pathIndex: 8, profileType: .curvature, value0: 511),
            head(\.offset, \.cyclicCounter, \.pathIndex) + [
                NumericField("Distance1", bits: 10, \.distance1), NumericField("Value0", bits: 10, \.value0),
                NumericField("Value1", bits: 10, \.value1),
            ], wrap: ADASISMessage.profileShort)
        try checkLimits(
            ProfileLongMessage(offset: 5, pathIndex: 8, profileType: .latitude, value: 1),
            head(\.offset, \.cyclicCounter, \.pathIndex) + [NumericField("Value", bits: 32, \.value)],
            wrap: ADASISMessage.profileLong)
    }

    @Test func metaDataFieldsAtTheirLimits() throws {
        try checkLimits(
            MetaDataMessage(),
            [
                NumericField("CountryCode", bits: 10, \.countryCode),
                NumericField("CyclicCounter", bits: 2, \.cyclicCounter),
                NumericField("ProtocolVersionMajor", bits: 2, \.protocolVersionMajor),
                NumericField("ProtocolVersionMinorSub", bits: 3, \.protocolVersionMinorSub),
                NumericField("HardwareVersion", bits: 9, \.hardwareVersion),
                NumericField("RegionCode", bits: 15, \.regionCode),
                NumericField("MapVersionQuarter", bits: 2, \.mapVersionQuarter),
                NumericField("MapVersionYear", bits: 6, \.mapVersionYear),
                NumericField("ProtocolVersionMinor", bits: 4, \.protocolVersionMinor),
            ], wrap: ADASISMessage.metaData)
    }

    @Test func flagsTravelInTheirOwnBit() throws {
        var segment = SegmentMessage(offset: 0, pathIndex: 8)
        segment.isRetransmission = true
        #expect(try FieldPacking.unpack(ADASISMessage.segment(segment).encode()).fields["Retransmission"] == 1)
        #expect(try FieldPacking.unpack(ADASISMessage.segment(segment).encode()).fields["Update"] == 0)
        var stub = StubMessage(offset: 0, pathIndex: 8, subPathIndex: 9, isLastStubAtOffset: false)
        stub.isUpdate = true
        let stubFields = try FieldPacking.unpack(ADASISMessage.stub(stub).encode()).fields
        #expect(stubFields["Update"] == 1 && stubFields["LastStubAtOffset"] == 0 && stubFields["Retransmission"] == 0)
        let profile = ProfileLongMessage(
            offset: 0, pathIndex: 8, profileType: .altitude, value: 0, isControlPoint: true)
        let profileFields = try FieldPacking.unpack(ADASISMessage.profileLong(profile).encode()).fields
        #expect(profileFields["ControlPoint"] == 1 && profileFields["Update"] == 0)
    }
}
