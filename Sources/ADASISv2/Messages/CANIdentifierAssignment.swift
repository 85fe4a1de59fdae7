/// Why a CAN identifier assignment is not usable.
public enum CANIdentifierError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The identifier does not fit 11 bits (standard) or 29 bits (extended).
    case outOfRange(UInt32, isExtended: Bool)
    /// Two message types were given the same identifier.
    case duplicate(UInt32, isExtended: Bool, types: [MessageType])
    /// A message type other than the six of the protocol was given an identifier.
    case typeWithoutLayout(MessageType)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .outOfRange(let value, let extended):
            "CAN identifier 0x\(String(value, radix: 16, uppercase: true)) does not fit \(extended ? 29 : 11) bits: "
                + "use at most \(extended ? "0x1FFFFFFF" : "0x7FF")\(extended ? "" : " or mark it extended")"
        case .duplicate(let value, _, let types):
            "CAN identifier 0x\(String(value, radix: 16, uppercase: true)) is assigned to "
                + types.map { "\($0)" }.joined(separator: " and ")
                + ": give each type its own identifier or use the multiplexed mode"
        case .typeWithoutLayout(let type):
            "message type \(type) has no ADASIS v2 layout: assign identifiers only to the six message types"
        }
    }
}

/// Which CAN identifier carries which message type: one identifier per type, or one multiplexed
/// identifier for all (the type is then read from the MessageType field of the payload).
public struct CANIdentifierAssignment: Hashable, Sendable {
    /// A CAN identifier as ADASIS v2 sees it: the number and whether it is a 29-bit extended one.
    /// Independent of the SocketCAN module on purpose.
    public struct Identifier: Hashable, Sendable, CustomStringConvertible {
        /// The identifier, at most 0x7FF (11-bit) or 0x1FFFFFFF (29-bit).
        public let rawValue: UInt32
        /// Whether this is a 29-bit extended identifier.
        public let isExtended: Bool

        /// Creates an identifier; one too large for its width is a typed error.
        public init(_ rawValue: UInt32, isExtended: Bool = false) throws(CANIdentifierError) {
            let maximum: UInt32 = isExtended ? 0x1FFF_FFFF : 0x7FF
            guard rawValue <= maximum else { throw .outOfRange(rawValue, isExtended: isExtended) }
            self.rawValue = rawValue
            self.isExtended = isExtended
        }

        /// An 11-bit identifier known to fit (the low 11 bits are kept).
        init(standard rawValue: UInt32) {
            self.rawValue = rawValue & 0x7FF
            self.isExtended = false
        }

        /// `0x361` for a standard identifier, `0x00000361x` (8 digits and an `x`) for an extended one.
        public var description: String {
            let hex = String(rawValue, radix: 16, uppercase: true)
            return isExtended ? "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex + "x" : "0x" + hex
        }
    }

    /// The two ways of assigning identifiers.
    public enum Mode: Hashable, Sendable {
        /// One identifier per message type.
        case perType([MessageType: Identifier])
        /// One identifier for all message types.
        case multiplexed(Identifier)
    }

    /// How identifiers are assigned.
    public let mode: Mode

    /// This project's defaults (those of `Tools/adasis-v2.dbc`): POSITION 0x361, SEGMENT 0x250,
    /// STUB 0x251, PROFILE SHORT 0x255, PROFILE LONG 0x252, META-DATA 0x362; 11-bit.
    public static let defaults = CANIdentifierAssignment(
        mode: .perType(defaultIdentifiers.mapValues { Identifier(standard: $0) }))

    /// The default identifier values by message type.
    public static let defaultIdentifiers: [MessageType: UInt32] = [
        .position: 0x361, .segment: 0x250, .stub: 0x251, .profileShort: 0x255, .profileLong: 0x252, .metaData: 0x362,
    ]

    private init(mode: Mode) {
        self.mode = mode
    }

    /// One identifier per message type (a type left out is not sent nor recognised); all 11-bit
    /// or all 29-bit. Out-of-range or duplicate identifiers are typed errors.
    public init(perType identifiers: [MessageType: UInt32], isExtended: Bool = false) throws(CANIdentifierError) {
        var assigned: [MessageType: Identifier] = [:]
        for (type, value) in identifiers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard MessageLayout.fields(of: type) != nil else { throw .typeWithoutLayout(type) }
            let identifier = try Identifier(value, isExtended: isExtended)
            if let other = assigned.first(where: { $0.value == identifier }) {
                throw .duplicate(value, isExtended: isExtended, types: [other.key, type])
            }
            assigned[type] = identifier
        }
        mode = .perType(assigned)
    }

    /// One multiplexed identifier for all six message types.
    public init(multiplexed identifier: UInt32, isExtended: Bool = false) throws(CANIdentifierError) {
        mode = .multiplexed(try Identifier(identifier, isExtended: isExtended))
    }

    /// The identifier that carries `type`; `nil` when the type has none.
    public func identifier(for type: MessageType) -> Identifier? {
        switch mode {
        case .perType(let identifiers): identifiers[type]
        case .multiplexed(let identifier): MessageLayout.fields(of: type) == nil ? nil : identifier
        }
    }

    /// Every identifier in use (for receive filters), sorted.
    public var identifiers: [Identifier] {
        switch mode {
        case .perType(let identifiers):
            identifiers.values.sorted { ($0.isExtended ? 1 : 0, $0.rawValue) < ($1.isExtended ? 1 : 0, $1.rawValue) }
        case .multiplexed(let identifier): [identifier]
        }
    }

    /// The message type a frame with `identifier` carries; `nil` for a foreign identifier.
    /// In per-type mode the identifier alone decides. In multiplexed mode the type is read from the
    /// top 3 bits of `payload` in `byteOrder` (`nil` without an 8-byte payload or for types 0 and 7).
    public func messageType(
        forIdentifier identifier: Identifier, payload: [UInt8] = [],
        byteOrder: ByteOrder = .bigEndian
    ) -> MessageType? {
        switch mode {
        case .perType(let identifiers):
            return identifiers.first { $0.value == identifier }?.key
        case .multiplexed(let multiplexed):
            guard identifier == multiplexed, payload.count == 8 else { return nil }
            let first = byteOrder == .bigEndian ? payload[0] : payload[7]
            let type = MessageType(rawValue: first >> 5)
            return type.flatMap { MessageLayout.fields(of: $0) == nil ? nil : $0 }
        }
    }
}
