import RoadMap

/// Decodes the `HeaderBlock` message of an `OSMHeader` blob.
///
/// `HeaderBlock{1: bbox, 4: required_features, 5: optional_features, 16: writingprogram, 17: source,
/// 32: osmosis_replication_timestamp}`, `HeaderBBox{1: left, 2: right, 3: top, 4: bottom}` in nanodegrees.
enum HeaderBlockDecoding {
    /// The required features this reader implements.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    /// The header described by `bytes`.
    static func header(from bytes: [UInt8]) throws(WireFormatError) -> OSMHeader {
        try bytes.withUnsafeBytesTyped { (buffer) throws(WireFormatError) in
            var reader = ProtobufReader(buffer)
            var header = OSMHeader()
            while let (field, wireType) = try reader.readFieldKey() {
                switch field {
                case 1:
                    try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "HeaderBlock")
                    header.boundingBox = try boundingBox(from: try reader.readLengthDelimited())
                case 4:
                    try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "HeaderBlock")
                    header.requiredFeatures.append(try reader.readString())
                case 16:
                    try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "HeaderBlock")
                    header.writingProgram = try reader.readString()
                case 32:
                    try ProtobufReader.expect(wireType, .varint, field: field, in: "HeaderBlock")
                    header.replicationTimestamp = Int64(bitPattern: try reader.readVarint())
                default:
                    try reader.skip(wireType)
                }
            }
            return header
        }
    }

    private static func boundingBox(from buffer: UnsafeRawBufferPointer) throws(WireFormatError)
        -> (minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double)
    {
        var reader = ProtobufReader(buffer)
        var sides: [UInt64: Int64] = [:]
        while let (field, wireType) = try reader.readFieldKey() {
            if (1...4).contains(field) {
                try ProtobufReader.expect(wireType, .varint, field: field, in: "HeaderBBox")
                sides[field] = try reader.readSignedVarint()
            } else {
                try reader.skip(wireType)
            }
        }
        guard let left = sides[1], let right = sides[2], let top = sides[3], let bottom = sides[4] else {
            throw WireFormatError("HeaderBBox lacks one of left, right, top, bottom")
        }
        return (degrees(bottom), degrees(left), degrees(top), degrees(right))
    }

    private static func degrees(_ nanodegrees: Int64) -> Double {
        Double(nanodegrees) / 1_000_000_000
    }
}
