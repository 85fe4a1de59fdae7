/// The ADASIS v2 message types: the top 3 bits of byte 0.
public enum MessageType: UInt8, Hashable, Sendable, CaseIterable {
    case systemSpecific = 0, position = 1, segment = 2, stub = 3, profileShort = 4, profileLong = 5
    case metaData = 6, reserved = 7

    /// Hashes as its raw value does.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The raw value combined with the table's seed: the provider looks message types up in
    /// dictionaries and sets for every frame it sends (cyclic counters, CAN identifiers, the
    /// message selection), and a dictionary asks for this rather than building a `Hasher`. Eight
    /// values differing in their three low bits: each gets a bucket of its own in any table.
    public func _rawHashValue(seed: Int) -> Int { seed ^ Int(rawValue) }
}

/// One field of a message: its name and width, in the order of the reference (MSB first).
public struct FieldSpec: Hashable, Sendable {
    /// Field name as in the reference (`Offset`, `PathIndex`, …); `reserved` fields are sent as 0.
    public let name: String
    /// Width in bits.
    public let bits: Int
    /// Creates a field.
    public init(_ name: String, _ bits: Int) {
        self.name = name
        self.bits = bits
    }
    /// Whether this is a reserved field (sent as 0, ignored on receipt).
    public var isReserved: Bool { name == "reserved" }
}

/// The bit layout of each message type, MSB first: the field maps of `Tools/adasis-v2.dbc`.
public enum MessageLayout {
    private static let head = [
        FieldSpec("MessageType", 3), FieldSpec("Offset", 13),
        FieldSpec("CyclicCounter", 2), FieldSpec("PathIndex", 6),
    ]

    /// The fields of `type`, MSB first; they fill exactly 64 bits. `nil` for types without a layout.
    public static func fields(of type: MessageType) -> [FieldSpec]? {
        cachedFields[Int(type.rawValue)]
    }

    /// The layouts by message type code, built once.
    private static let cachedFields: [[FieldSpec]?] = MessageType.allCases.sorted { $0.rawValue < $1.rawValue }.map(
        layout)

    /// The names of the fields of each message type code, for checking the keys given to `pack`.
    static let fieldNames: [Set<String>] = cachedFields.map { Set(($0 ?? []).map(\.name)) }

    /// Where each value of a typed message goes, by message type code: the fields other than
    /// MessageType and the reserved bits, in layout order, with their shift in the 64-bit word.
    static let valueSlots: [[ValueSlot]?] = cachedFields.map { fields in
        fields.map { fields in
            var position = 0
            var slots: [ValueSlot] = []
            for field in fields {
                defer { position += field.bits }
                guard !field.isReserved, field.name != "MessageType" else { continue }
                slots.append(
                    ValueSlot(
                        name: field.name, shift: UInt64(64 - position - field.bits),
                        maximum: (1 << UInt64(field.bits)) - 1))
            }
            return slots
        }
    }

    /// One value's place in the payload word.
    struct ValueSlot {
        let name: String
        let shift: UInt64
        let maximum: UInt64
    }

    private static func layout(of type: MessageType) -> [FieldSpec]? {
        switch type {
        case .position:
            return head + [
                FieldSpec("PositionIndex", 2), FieldSpec("PositionProbability", 5),
                FieldSpec("PositionAge", 9), FieldSpec("reserved", 1), FieldSpec("PositionConfidence", 3),
                FieldSpec("CurrentLane", 3), FieldSpec("Speed", 9), FieldSpec("RelativeHeading", 8),
            ]
        case .segment:
            return head + [
                FieldSpec("Tunnel", 2), FieldSpec("Bridge", 2), FieldSpec("BuiltUpArea", 2),
                FieldSpec("Retransmission", 1), FieldSpec("Update", 1), FieldSpec("RelativeProbability", 5),
                FieldSpec("FunctionalRoadClass", 3), FieldSpec("PartOfCalculatedRoute", 2),
                FieldSpec("ComplexIntersection", 2), FieldSpec("FormOfWay", 4),
                FieldSpec("EffectiveSpeedLimit", 5), FieldSpec("EffectiveSpeedLimitType", 3),
                FieldSpec("reserved", 1), FieldSpec("DividedRoad", 2),
                FieldSpec("NumberOfLanesOppositeDirection", 2), FieldSpec("NumberOfLanesDrivingDirection", 3),
            ]
        case .stub:
            return head + [
                FieldSpec("SubPathIndex", 6), FieldSpec("Retransmission", 1), FieldSpec("Update", 1),
                FieldSpec("RelativeProbability", 5), FieldSpec("FunctionalRoadClass", 3),
                FieldSpec("PartOfCalculatedRoute", 2), FieldSpec("ComplexIntersection", 2),
                FieldSpec("FormOfWay", 4), FieldSpec("TurnAngle", 8), FieldSpec("LastStubAtOffset", 1),
                FieldSpec("RightOfWay", 2), FieldSpec("NumberOfLanesOppositeDirection", 2),
                FieldSpec("NumberOfLanesDrivingDirection", 3),
            ]
        case .profileShort:
            return head + [
                FieldSpec("ProfileType", 5), FieldSpec("ControlPoint", 1), FieldSpec("Retransmission", 1),
                FieldSpec("Update", 1), FieldSpec("Accuracy", 2), FieldSpec("Distance1", 10),
                FieldSpec("Value0", 10), FieldSpec("Value1", 10),
            ]
        case .profileLong:
            return head + [
                FieldSpec("ProfileType", 5), FieldSpec("ControlPoint", 1), FieldSpec("Retransmission", 1),
                FieldSpec("Update", 1), FieldSpec("Value", 32),
            ]
        case .metaData:
            return [
                FieldSpec("MessageType", 3), FieldSpec("MapProvider", 3), FieldSpec("CountryCode", 10),
                FieldSpec("CyclicCounter", 2), FieldSpec("ProtocolVersionMajor", 2),
                FieldSpec("ProtocolVersionMinorSub", 3), FieldSpec("HardwareVersion", 9),
                FieldSpec("DrivingSide", 1), FieldSpec("RegionCode", 15), FieldSpec("MapVersionQuarter", 2),
                FieldSpec("MapVersionYear", 6), FieldSpec("reserved", 3), FieldSpec("SpeedUnits", 1),
                FieldSpec("ProtocolVersionMinor", 4),
            ]
        case .systemSpecific, .reserved:
            return nil
        }
    }
}

/// Byte order of the 8 payload bytes: big-endian (byte 0 most significant) or reversed.
public enum ByteOrder: String, Hashable, Sendable, CaseIterable {
    case bigEndian, littleEndian
}

/// Why a frame could not be packed or unpacked.
public enum FieldCodingError: Error, Hashable, Sendable {
    /// The payload is not exactly 8 bytes.
    case wrongLength(Int)
    /// A value does not fit its field.
    case valueOutOfRange(field: String, value: UInt64, maximum: UInt64)
    /// The message type bits name a type without a layout (0 system-specific, 7 reserved).
    case unsupportedMessageType(UInt8)
    /// A field name that the type's layout does not have.
    case unknownField(String)
}

/// Packs and unpacks named fields of one message type into the 8-byte payload.
public enum FieldPacking {
    /// Packs `values` (field name → raw value; missing fields and reserved bits are 0) into 8 bytes.
    public static func pack(
        _ type: MessageType, _ values: [String: UInt64],
        byteOrder: ByteOrder = .bigEndian
    ) throws(FieldCodingError) -> [UInt8] {
        guard let fields = MessageLayout.fields(of: type) else { throw .unsupportedMessageType(type.rawValue) }
        let known = MessageLayout.fieldNames[Int(type.rawValue)]
        for name in values.keys where !known.contains(name) { throw .unknownField(name) }
        var word: UInt64 = 0
        var position = 0
        for field in fields {
            let maximum: UInt64 = (1 << UInt64(field.bits)) - 1
            var value: UInt64 = field.isReserved ? 0 : values[field.name] ?? 0
            if field.name == "MessageType" { value = UInt64(type.rawValue) }
            guard value <= maximum else { throw .valueOutOfRange(field: field.name, value: value, maximum: maximum) }
            word |= value << UInt64(64 - position - field.bits)
            position += field.bits
        }
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * $0)) }
        return byteOrder == .bigEndian ? bytes : bytes.reversed()
    }

    /// The payload word of a typed message whose `writeFields` hands over its values in layout
    /// order (the encoder's path: no field name hashed or compared, nothing allocated). Debug
    /// builds assert each name against the layout, and `FieldOrderTests` checks every message's
    /// order; more values than the layout has fields is a typed error (`unknownField`), a value too
    /// wide for its field too.
    static func word(
        _ type: MessageType,
        _ writeFields: ((StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError) -> Void
    ) throws(FieldCodingError) -> UInt64 {
        guard let slots = MessageLayout.valueSlots[Int(type.rawValue)] else {
            throw .unsupportedMessageType(type.rawValue)
        }
        var word = UInt64(type.rawValue) << 61
        var index = 0
        try writeFields { name, value throws(FieldCodingError) in
            guard index < slots.count else { throw .unknownField("\(name)") }
            let slot = slots[index]
            assert(slot.name == "\(name)", "\(type) packs \(name) where the layout has \(slot.name)")
            guard value <= slot.maximum else {
                throw .valueOutOfRange(field: slot.name, value: value, maximum: slot.maximum)
            }
            word |= value << slot.shift
            index += 1
        }
        return word
    }

    /// Unpacks 8 bytes into the message type and its named raw fields (reserved fields omitted).
    /// Never traps: any 8 bytes give a result or a typed error.
    public static func unpack(_ payload: [UInt8], byteOrder: ByteOrder = .bigEndian)
        throws(FieldCodingError) -> (type: MessageType, fields: [String: UInt64])
    {
        guard payload.count == 8 else { throw .wrongLength(payload.count) }
        let bytes = byteOrder == .bigEndian ? payload : payload.reversed()
        let word = bytes.reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        // Three bits, 0…7: MessageType has a case for each.
        let type = MessageType(rawValue: UInt8(word >> 61))!
        guard let fields = MessageLayout.fields(of: type) else { throw .unsupportedMessageType(type.rawValue) }
        var result: [String: UInt64] = [:]
        var position = 0
        for field in fields {
            if !field.isReserved {
                result[field.name] = (word >> UInt64(64 - position - field.bits)) & ((1 << UInt64(field.bits)) - 1)
            }
            position += field.bits
        }
        return (type, result)
    }
}
