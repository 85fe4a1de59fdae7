import Testing
@testable import ADASISv2

@Suite struct MessageIdentifierTests {
    @Test func defaultsAreThoseOfTheDBC() throws {
        let defaults = CANIdentifierAssignment.defaults
        let expected: [MessageType: UInt32] = [
            .position: 0x361, .segment: 0x250, .stub: 0x251, .profileShort: 0x255,
            .profileLong: 0x252, .metaData: 0x362,
        ]
        for (type, value) in expected {
            #expect(defaults.identifier(for: type) == (try CANIdentifierAssignment.Identifier(value)))
            #expect(defaults.messageType(forIdentifier: try .init(value)) == type)
        }
        #expect(defaults.identifier(for: .reserved) == nil)
        #expect(defaults.messageType(forIdentifier: try .init(0x123)) == nil)
        #expect(defaults.messageType(forIdentifier: try .init(0x361, isExtended: true)) == nil)
        #expect(defaults.identifiers.map(\.rawValue) == [0x250, 0x251, 0x252, 0x255, 0x361, 0x362])
    }

    @Test func multiplexedIdentifierTakesTheTypeFromThePayload() throws {
        let assignment = try CANIdentifierAssignment(multiplexed: 0x1ABC_DEF0, isExtended: true)
        let identifier = try CANIdentifierAssignment.Identifier(0x1ABC_DEF0, isExtended: true)
        let stub = try ADASISMessage.stub(StubMessage(offset: 3, pathIndex: 8, subPathIndex: 9)).encode()
        #expect(assignment.identifier(for: .segment) == identifier)
        #expect(assignment.messageType(forIdentifier: identifier, payload: stub) == .stub)
        #expect(
            assignment.messageType(forIdentifier: identifier, payload: stub.reversed(), byteOrder: .littleEndian)
                == .stub)
        #expect(assignment.messageType(forIdentifier: identifier, payload: [0xE0, 0, 0, 0, 0, 0, 0, 0]) == nil)
        #expect(assignment.messageType(forIdentifier: identifier, payload: [0x20]) == nil)
        #expect(assignment.messageType(forIdentifier: try .init(0x6F0), payload: stub) == nil)
        #expect(identifier.description == "0x1ABCDEF0x")
        #expect(try CANIdentifierAssignment.Identifier(0x361).description == "0x361")
    }

    @Test func badAssignmentsAreTypedErrors() {
        #expect(throws: CANIdentifierError.outOfRange(0x800, isExtended: false)) {
            try CANIdentifierAssignment(perType: [.position: 0x800])
        }
        #expect(throws: CANIdentifierError.outOfRange(0x2000_0000, isExtended: true)) {
            try CANIdentifierAssignment(multiplexed: 0x2000_0000, isExtended: true)
        }
        #expect(throws: CANIdentifierError.duplicate(0x100, isExtended: false, types: [.position, .segment])) {
            try CANIdentifierAssignment(perType: [.segment: 0x100, .position: 0x100])
        }
        #expect(throws: CANIdentifierError.typeWithoutLayout(.systemSpecific)) {
            try CANIdentifierAssignment(perType: [.systemSpecific: 0x100])
        }
        let error = CANIdentifierError.outOfRange(0x800, isExtended: false)
        #expect(error.description.contains("0x7FF") && error.description.contains("extended"))
    }
}
