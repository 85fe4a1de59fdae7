import Testing
@testable import ADASISv2

/// The typed messages list their fields in layout order, so encoding takes the fast path
/// (`FieldPacking.pack(_:ordered:)`) without hashing field names.
@Suite("typed messages list their fields in layout order")
struct FieldOrderTests {
    static func layoutNames(_ type: MessageType) -> [String] {
        (MessageLayout.fields(of: type) ?? []).filter { !$0.isReserved && $0.name != "MessageType" }.map(\.name)
    }

    @Test func everyMessageType() {
        #expect(PositionMessage(offset: 1, pathIndex: 8).fieldValues.map { "\($0.key)" } == Self.layoutNames(.position))
        #expect(SegmentMessage(offset: 1, pathIndex: 8).fieldValues.map { "\($0.key)" } == Self.layoutNames(.segment))
        #expect(StubMessage(offset: 1, pathIndex: 8, subPathIndex: 9).fieldValues.map { "\($0.key)" } == Self.layoutNames(.stub))
        #expect(
            ProfileShortMessage(offset: 1, pathIndex: 8, profileType: .curvature, value0: 511).fieldValues.map { "\($0.key)" }
                == Self.layoutNames(.profileShort))
        #expect(
            ProfileLongMessage(offset: 1, pathIndex: 8, profileType: .longitude, value: 1).fieldValues.map { "\($0.key)" }
                == Self.layoutNames(.profileLong))
        #expect(MetaDataMessage().fieldValues.map { "\($0.key)" } == Self.layoutNames(.metaData))
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
