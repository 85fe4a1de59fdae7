import RoadMap

/// A protobuf message that does not follow the wire format (internal; mapped to `OSMPBFError.corruptBlob`).
struct WireFormatError: Error, Equatable {
    /// What is wrong, for the error message.
    var reason: String

    init(_ reason: String) { self.reason = reason }
}

/// The protobuf wire types this decoder understands.
enum WireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// A forward-only reader of protobuf fields over bytes it does not own.
///
/// Only valid while the buffer it was made from is alive (inside a `withUnsafeBytes` closure).
/// Every read is bounds-checked and throws `WireFormatError` instead of trapping.
struct ProtobufReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    /// A reader positioned at the first byte of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether every byte has been consumed.
    var isAtEnd: Bool { position >= bytes.count }

    /// Reads a base-128 varint (at most 10 bytes).
    @inline(__always)
    mutating func readVarint() throws(WireFormatError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw WireFormatError("a varint is longer than 10 bytes at byte \(position)") }
        }
        throw WireFormatError("a varint runs past the end of its message (\(bytes.count) bytes)")
    }

    /// Reads a zigzag-encoded `sint64`.
    @inline(__always)
    mutating func readSignedVarint() throws(WireFormatError) -> Int64 {
        Self.zigzagDecoded(try readVarint())
    }

    /// Reads a field key; returns nil at the end of the message.
    mutating func readFieldKey() throws(WireFormatError) -> (field: UInt64, wireType: WireType)? {
        if isAtEnd { return nil }
        let key = try readVarint()
        let field = key >> 3
        guard field != 0 else { throw WireFormatError("field number 0 at byte \(position)") }
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw WireFormatError("unsupported wire type \(key & 7) for field \(field)")
        }
        return (field, wireType)
    }

    /// Reads a length-delimited field's bytes (a view into the same buffer).
    mutating func readLengthDelimited() throws(WireFormatError) -> UnsafeRawBufferPointer {
        let length = try readVarint()
        guard length <= UInt64(bytes.count - position) else {
            throw WireFormatError(
                "a field of \(length) bytes runs past the end of its message (\(bytes.count - position) bytes left)")
        }
        let end = position + Int(length)
        let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<end])
        position = end
        return slice
    }

    /// Reads a length-delimited field as a UTF-8 string (invalid sequences are replaced).
    mutating func readString() throws(WireFormatError) -> String {
        String(decoding: try readLengthDelimited(), as: UTF8.self)
    }

    /// Skips a field's value of the given wire type.
    mutating func skip(_ wireType: WireType) throws(WireFormatError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed64: try advance(by: 8)
        case .fixed32: try advance(by: 4)
        }
    }

    /// Checks that a field has the wire type its schema declares.
    static func expect(_ wireType: WireType, _ expected: WireType, field: UInt64, in message: String)
        throws(WireFormatError)
    {
        guard wireType == expected else {
            throw WireFormatError(
                "\(message) field \(field) has wire type \(wireType.rawValue), expected \(expected.rawValue)")
        }
    }

    /// Decodes zigzag encoding (0, -1, 1, -2, … ↔ 0, 1, 2, 3, …).
    @inline(__always)
    static func zigzagDecoded(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    private mutating func advance(by count: Int) throws(WireFormatError) {
        guard count <= bytes.count - position else {
            throw WireFormatError("a fixed-size field runs past the end of its message")
        }
        position += count
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` with a typed error (the standard library's version only rethrows `any Error`).
    func withUnsafeBytesTyped<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = withUnsafeBytes { buffer in
            Swift.Result { () throws(Failure) -> Result in try body(buffer) }
        }
        return try outcome.get()
    }
}

extension ProtobufReader {
    /// Reads one occurrence of a repeated varint field, packed (wire type 2) or not (wire type 0),
    /// handing each raw value to `body`.
    @inline(__always)
    mutating func readRepeatedVarints(
        _ wireType: WireType, field: UInt64, in message: String, _ body: (UInt64) -> Void
    ) throws(WireFormatError) {
        switch wireType {
        case .lengthDelimited:
            var packed = ProtobufReader(try readLengthDelimited())
            while !packed.isAtEnd { body(try packed.readVarint()) }
        case .varint:
            body(try readVarint())
        default:
            throw WireFormatError(
                "\(message) field \(field) has wire type \(wireType.rawValue), expected a repeated varint")
        }
    }
}
