/// One ADASIS v2 message of any of the six types, encoded to and decoded from its 8-byte payload.
///
/// ```swift
/// let bytes = try ADASISMessage.segment(SegmentMessage(offset: 100, pathIndex: 8)).encode()
/// let message = try ADASISMessage.decode(bytes)   // .segment(…)
/// ```
public enum ADASISMessage: Hashable, Sendable {
    /// POSITION (type 1).
    case position(PositionMessage)
    /// SEGMENT (type 2).
    case segment(SegmentMessage)
    /// STUB (type 3).
    case stub(StubMessage)
    /// PROFILE SHORT (type 4).
    case profileShort(ProfileShortMessage)
    /// PROFILE LONG (type 5).
    case profileLong(ProfileLongMessage)
    /// META-DATA (type 6).
    case metaData(MetaDataMessage)

    /// The message type of the payload's top 3 bits.
    public var type: MessageType {
        switch self {
        case .position: .position
        case .segment: .segment
        case .stub: .stub
        case .profileShort: .profileShort
        case .profileLong: .profileLong
        case .metaData: .metaData
        }
    }

    /// The cyclic counter (0…3) of the message.
    public var cyclicCounter: UInt8 {
        switch self {
        case .position(let message): message.cyclicCounter
        case .segment(let message): message.cyclicCounter
        case .stub(let message): message.cyclicCounter
        case .profileShort(let message): message.cyclicCounter
        case .profileLong(let message): message.cyclicCounter
        case .metaData(let message): message.cyclicCounter
        }
    }

    /// Encodes the message into exactly 8 payload bytes. A value too wide for its field throws
    /// `FieldCodingError.valueOutOfRange` naming the field.
    public func encode(byteOrder: ByteOrder = .bigEndian) throws(FieldCodingError) -> [UInt8] {
        PayloadWord.bytes(try encodedWord(byteOrder: byteOrder))
    }

    /// The 8 payload bytes of ``encode(byteOrder:)`` as one word, the first byte in the most
    /// significant position (``PayloadWord``): the same encoding with nothing allocated, for the
    /// provider, which encodes every frame it sends.
    public func encodedWord(byteOrder: ByteOrder = .bigEndian) throws(FieldCodingError) -> UInt64 {
        switch self {
        case .position(let message): try message.packedWord(byteOrder: byteOrder)
        case .segment(let message): try message.packedWord(byteOrder: byteOrder)
        case .stub(let message): try message.packedWord(byteOrder: byteOrder)
        case .profileShort(let message): try message.packedWord(byteOrder: byteOrder)
        case .profileLong(let message): try message.packedWord(byteOrder: byteOrder)
        case .metaData(let message): try message.packedWord(byteOrder: byteOrder)
        }
    }

    /// Decodes an 8-byte payload. Never traps: any input gives a message or a typed error
    /// (`wrongLength` for a payload that is not 8 bytes, `unsupportedMessageType` for types 0 and 7).
    public static func decode(_ bytes: [UInt8], byteOrder: ByteOrder = .bigEndian) throws(FieldCodingError)
        -> ADASISMessage
    {
        let (type, values) = try FieldPacking.unpack(bytes, byteOrder: byteOrder)
        let fields = UnpackedFields(type: type, values: values)
        switch type {
        case .position: return .position(try PositionMessage(fields: fields))
        case .segment: return .segment(try SegmentMessage(fields: fields))
        case .stub: return .stub(try StubMessage(fields: fields))
        case .profileShort: return .profileShort(try ProfileShortMessage(fields: fields))
        case .profileLong: return .profileLong(try ProfileLongMessage(fields: fields))
        case .metaData: return .metaData(try MetaDataMessage(fields: fields))
        case .systemSpecific, .reserved: throw .unsupportedMessageType(type.rawValue)
        }
    }
}
