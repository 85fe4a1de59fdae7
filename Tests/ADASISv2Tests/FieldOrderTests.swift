import Testing
@testable import ADASISv2

/// The typed messages list their fields in layout order, so encoding takes the fast path
/// (`FieldPacking.pack(_:ordered:)`) without hashing field names.
@Suite("typed messages list their fields in layout order")
struct FieldOrderTests {
    static func layoutNames(_ type: MessageType) -> [String] {
        (MessageLayout.fields(of: type) ?? []).filter { !$0.isReserved && $0.name != "MessageType" }.map(\.name)
    }

    /// The field names `message` lists, in its order.
    static func names(_ message: some FieldMappedMessage) -> [String] { message.fieldValues.map { "\($0.key)" } }

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

    @Test("out-of-order fields still encode (general path), unknown ones are refused")
    func fallback() throws {
        let ordered = try FieldPacking.pack(.position, ordered: ["Offset": 5, "CyclicCounter": 1, "PathIndex": 8])
        let shuffled = try FieldPacking.pack(.position, ordered: ["PathIndex": 8, "Offset": 5, "CyclicCounter": 1])
        #expect(ordered == shuffled)
        #expect(ordered == (try FieldPacking.pack(.position, ["Offset": 5, "CyclicCounter": 1, "PathIndex": 8])))
        #expect(throws: FieldCodingError.unknownField("Tunnel")) {
            try FieldPacking.pack(.position, ordered: ["Offset": 5, "Tunnel": 1])
        }
    }
}
