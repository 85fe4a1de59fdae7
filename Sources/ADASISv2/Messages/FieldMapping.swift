/// A typed message that maps onto the named fields of its `MessageLayout`.
protocol FieldMappedMessage {
    /// The message type whose layout this struct fills.
    static var messageType: MessageType { get }
    /// Hands the raw value of every non-reserved field except MessageType to `write`, in layout
    /// order (`FieldOrderTests` checks the order of every message type).
    func writeFields(_ write: (StaticString, UInt64) throws(FieldCodingError) -> Void) throws(FieldCodingError)
    /// Reads the fields unpacked from a frame.
    init(fields: UnpackedFields) throws(FieldCodingError)
}

extension FieldMappedMessage {
    /// Packs the message into its 8 payload bytes as one word, the first byte in the most
    /// significant position (``PayloadWord``); a value too wide for its field is a typed error.
    /// The layout's bit 0 is the word's most significant bit, so big-endian bytes are the word
    /// itself and little-endian bytes its bytes reversed.
    func packedWord(byteOrder: ByteOrder) throws(FieldCodingError) -> UInt64 {
        let word = try FieldPacking.word(Self.messageType, writeFields)
        return byteOrder == .bigEndian ? word : word.byteSwapped
    }
}

/// The raw fields of one unpacked frame, read into typed values without trapping.
struct UnpackedFields {
    let type: MessageType
    let values: [String: UInt64]

    /// The field's raw value converted to `T`; a value that does not fit is a typed error.
    func integer<T: FixedWidthInteger>(_ name: String, as _: T.Type = T.self) throws(FieldCodingError) -> T {
        let value = values[name] ?? 0
        guard let result = T(exactly: value) else {
            throw .valueOutOfRange(field: name, value: value, maximum: UInt64(T.max))
        }
        return result
    }

    /// A one-bit field as a flag.
    func flag(_ name: String) -> Bool { (values[name] ?? 0) != 0 }

    /// The field's raw value as an enumeration; a code without a case is a typed error.
    func enumeration<E: RawRepresentable>(_ name: String, as _: E.Type = E.self) throws(FieldCodingError) -> E
    where E.RawValue == UInt8 {
        let value = values[name] ?? 0
        guard let code = UInt8(exactly: value), let result = E(rawValue: code) else {
            let width = MessageLayout.fields(of: type)?.first { $0.name == name }?.bits ?? 8
            throw .valueOutOfRange(field: name, value: value, maximum: (1 << UInt64(width)) - 1)
        }
        return result
    }
}

extension Bool {
    /// 1 for `true`, 0 for `false`: the raw value of a one-bit field.
    var fieldValue: UInt64 { self ? 1 : 0 }
}
