import Testing
@testable import ADASISv2

/// The typed messages hand over their fields in layout order, which the encoder
/// (`FieldPacking.word(_:_:)`) relies on instead of hashing or comparing field names.
@Suite("typed messages list their fields in layout order")
struct FieldOrderTests {
    static func layoutNames(_ type: MessageType) -> [String] {
        (MessageLayout.fields(of: type) ?? []).filter { !$0.isReserved && $0.name != "MessageType" }.map(\.name)
    }

    /// The field names `message` lists, in its order.
    static func names(_ message: some FieldMappedMessage) -> [String] {
        var names: [String] = []
        try? message.writeFields { name, _ in names.append("\(name)") }
        return names
    }

    @Test func everyMessageType() {
        #expect(Self.names(PositionMessage(offset: 1, pathIndex: 8)) == Self.layoutNames(.position))
        #expect(Self.names(SegmentMessage(offset: 1, pathIndex: 8)) == Self.layoutNames(.segment))
        #expect(Self.names(StubMessage(offset: 1, pathIndex: 8, subPathIndex: 9)) == Self.layoutNames(.stub))
        let short = ProfileShortMessage(offset: 1, pathIndex: 8, profileType: .curvature, value0: 511)
        #expect(Self.names(short) == Self.layoutNames(.profileShort))
        let long = ProfileLongMessage(offset: 1, pathIndex: 8, profileType: .longitude, value: 1)
        #expect(Self.names(long) == Self.layoutNames(.profileLong))
        #expect(Self.names(MetaDataMessage()) == Self.layoutNames(.metaData))
    }

    @Test("a value past the layout's fields, or too wide for its field, is a typed error, not a trap")
    func refusals() {
        let long = ProfileLongMessage(offset: 1, pathIndex: 8, profileType: .longitude, value: 1)
        #expect(throws: FieldCodingError.unknownField("Extra")) {
            try FieldPacking.word(.profileLong) { write throws(FieldCodingError) in
                try long.writeFields(write)
                try write("Extra", 1)
            }
        }
        #expect(throws: FieldCodingError.valueOutOfRange(field: "Offset", value: 8192, maximum: 8191)) {
            try FieldPacking.word(.profileLong) { write throws(FieldCodingError) in try write("Offset", 8192) }
        }
    }
}
