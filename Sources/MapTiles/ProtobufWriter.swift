/// The few protocol-buffer encodings a vector tile needs: varints, zigzag, and length-delimited
/// fields (https://protobuf.dev/programming-guides/encoding/).
struct ProtobufWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Wire types used by the vector-tile messages.
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func key(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    mutating func bytesField(_ field: UInt64, _ value: some Collection<UInt8>) {
        key(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func stringField(_ field: UInt64, _ value: String) { bytesField(field, Array(value.utf8)) }

    mutating func doubleField(_ field: UInt64, _ value: Double) {
        key(field, .fixed64)
        let raw = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: raw >> UInt64(shift))) }
    }

    /// A packed repeated `uint32` field.
    mutating func packedField(_ field: UInt64, _ values: [UInt32]) {
        guard !values.isEmpty else { return }
        var inner = ProtobufWriter()
        for value in values { inner.varint(UInt64(value)) }
        bytesField(field, inner.bytes)
    }

    /// Zigzag encoding of a signed 32-bit integer (small magnitudes → small varints).
    static func zigzag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// Zigzag encoding of a signed 64-bit integer.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
