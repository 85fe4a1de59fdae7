import RoadMap
import Testing
@testable import RoadMapImport

/// A minimal protobuf encoder for building test inputs (independent of the decoder under test).
struct ProtobufTestWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func key(_ field: UInt64, _ wireType: UInt64) { varint(field << 3 | wireType) }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, 0)
        varint(value)
    }

    mutating func bytesField(_ field: UInt64, _ value: [UInt8]) {
        key(field, 2)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func stringField(_ field: UInt64, _ value: String) { bytesField(field, Array(value.utf8)) }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
}

@Suite("OSM PBF protobuf wire decoder")
struct OSMPBFWireTests {
    private func decode<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws(WireFormatError) -> T)
        throws(WireFormatError) -> T
    {
        try bytes.withUnsafeBytesTyped { (buffer) throws(WireFormatError) in
            var reader = ProtobufReader(buffer)
            return try body(&reader)
        }
    }

    @Test("varints decode as in the protobuf documentation (150 = 96 01, 300 = AC 02)")
    func varints() throws {
        #expect(try decode([0x96, 0x01]) { (r) throws(WireFormatError) in try r.readVarint() } == 150)
        #expect(try decode([0xAC, 0x02]) { (r) throws(WireFormatError) in try r.readVarint() } == 300)
        var writer = ProtobufTestWriter()
        writer.varint(UInt64.max)
        #expect(writer.bytes.count == 10)
        #expect(try decode(writer.bytes) { (r) throws(WireFormatError) in try r.readVarint() } == UInt64.max)
    }

    @Test("zigzag sint64 maps 0, 1, 2, 3 to 0, -1, 1, -2 and reaches both extremes")
    func zigzag() {
        #expect([0, 1, 2, 3].map { ProtobufReader.zigzagDecoded($0) } == [0, -1, 1, -2])
        #expect(ProtobufReader.zigzagDecoded(ProtobufTestWriter.zigzag(.min)) == .min)
        #expect(ProtobufReader.zigzagDecoded(ProtobufTestWriter.zigzag(.max)) == .max)
    }

    @Test("an overlong varint, a varint cut short and a field longer than its message throw")
    func malformed() {
        #expect(throws: WireFormatError.self) {
            try decode([UInt8](repeating: 0xFF, count: 11)) { (r) throws(WireFormatError) in try r.readVarint() }
        }
        #expect(throws: WireFormatError.self) {
            try decode([0x96]) { (r) throws(WireFormatError) in try r.readVarint() }
        }
        #expect(throws: WireFormatError.self) {
            try decode([0x0A, 0x05, 0x01]) { (r) throws(WireFormatError) in
                _ = try r.readFieldKey()
                return try r.readLengthDelimited().count
            }
        }
        #expect(throws: WireFormatError.self) {
            try decode([0x0B]) { (r) throws(WireFormatError) in try r.readFieldKey()?.field }
        }
    }

    @Test("packed and unpacked repeated varints give the same values")
    func repeatedVarints() throws {
        var packed = ProtobufTestWriter()
        var inner = ProtobufTestWriter()
        [3, 270, 86942].forEach { inner.varint($0) }
        packed.bytesField(4, inner.bytes)
        #expect(packed.bytes == [0x22, 0x06, 0x03, 0x8E, 0x02, 0x9E, 0xA7, 0x05])
        var unpacked = ProtobufTestWriter()
        [3, 270, 86942].forEach { unpacked.varintField(4, $0) }
        for message in [packed.bytes, unpacked.bytes] {
            let values = try decode(message) { (r) throws(WireFormatError) -> [UInt64] in
                var values: [UInt64] = []
                while let (field, wireType) = try r.readFieldKey() {
                    #expect(field == 4)
                    try r.readRepeatedVarints(wireType, field: field, in: "Test") { values.append($0) }
                }
                return values
            }
            #expect(values == [3, 270, 86942])
        }
    }
}
