import RoadMap

/// One framed blob of a PBF file, before decompression.
struct PBFFrame {
    /// Position in the file (0 is the header blob).
    var index: Int
    /// Byte offset of its 4-byte length prefix.
    var offset: Int
    /// `BlobHeader.type` (`OSMHeader`, `OSMData`, or something to skip).
    var type: String
    /// The encoded `Blob` message.
    var blob: [UInt8]
}

/// Splits a PBF byte source into blobs: `[4-byte big-endian length][BlobHeader][Blob]`, repeated.
///
/// Sizes are capped as the format specifies (BlobHeader ≤ 64 KiB, Blob ≤ 32 MiB). Problems in the
/// first blob mean the input is not a PBF file at all and are reported as `.notPBF`.
struct PBFBlobFramer: Sendable {
    /// Largest `BlobHeader` the format allows.
    static let maximumHeaderSize = 64 * 1024
    /// Largest `Blob` (and uncompressed block) the format allows.
    static let maximumBlobSize = 32 * 1024 * 1024

    private let source: PBFByteSource
    private let sourceName: String
    /// Offset of the next blob's length prefix (= bytes consumed so far).
    private(set) var offset = 0
    /// Index of the next blob.
    private(set) var index = 0

    /// A framer at the start of `source`; `sourceName` (a path) appears in `.notPBF` errors.
    init(source: PBFByteSource, sourceName: String) {
        self.source = source
        self.sourceName = sourceName
    }

    /// Total size of the source in bytes.
    var totalBytes: Int { source.count }

    /// The next blob, or nil at the end of the source.
    mutating func next() throws(OSMPBFError) -> PBFFrame? {
        guard offset < source.count || index == 0 else { return nil }
        let start = offset
        let isFirst = index == 0
        guard source.count > 0 else { throw .notPBF(sourceName) }
        let prefix = try source.bytes(at: start, count: 4)
        guard prefix.count == 4 else { throw .truncated(blob: index, offset: start) }
        let headerSize = prefix.reduce(0) { $0 << 8 | Int($1) }
        guard headerSize <= Self.maximumHeaderSize else {
            if isFirst { throw .notPBF(sourceName) }
            throw .corruptBlob(
                blob: index, offset: start,
                reason: "its BlobHeader length \(headerSize) exceeds the 64 KiB limit")
        }
        let headerBytes = try source.bytes(at: start + 4, count: headerSize)
        guard headerBytes.count == headerSize else { throw .truncated(blob: index, offset: start) }
        let header: (type: String, dataSize: Int64)
        do {
            header = try Self.decodeBlobHeader(headerBytes)
        } catch {
            if isFirst { throw .notPBF(sourceName) }
            throw .corruptBlob(blob: index, offset: start, reason: "its BlobHeader is malformed: \(error.reason)")
        }
        if isFirst && header.type != "OSMHeader" { throw .notPBF(sourceName) }
        guard (0...Int64(Self.maximumBlobSize)).contains(header.dataSize) else {
            throw .corruptBlob(
                blob: index, offset: start,
                reason: "its datasize \(header.dataSize) is outside 0…32 MiB")
        }
        let dataSize = Int(header.dataSize)
        let blob = try source.bytes(at: start + 4 + headerSize, count: dataSize)
        guard blob.count == dataSize else { throw .truncated(blob: index, offset: start) }
        let frame = PBFFrame(index: index, offset: start, type: header.type, blob: blob)
        offset = start + 4 + headerSize + dataSize
        index += 1
        return frame
    }

    /// Decodes `BlobHeader{1: type, 2: indexdata, 3: datasize}`; type and datasize are required.
    private static func decodeBlobHeader(_ bytes: [UInt8]) throws(WireFormatError) -> (type: String, dataSize: Int64) {
        try bytes.withUnsafeBytesTyped { (buffer) throws(WireFormatError) in
            var reader = ProtobufReader(buffer)
            var type: String?
            var dataSize: Int64?
            while let (field, wireType) = try reader.readFieldKey() {
                switch field {
                case 1:
                    try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "BlobHeader")
                    type = try reader.readString()
                case 3:
                    try ProtobufReader.expect(wireType, .varint, field: field, in: "BlobHeader")
                    dataSize = Int64(bitPattern: try reader.readVarint())
                default:
                    try reader.skip(wireType)
                }
            }
            guard let type else { throw WireFormatError("BlobHeader has no type") }
            guard let dataSize else { throw WireFormatError("BlobHeader has no datasize") }
            return (type, dataSize)
        }
    }
}
