import RoadMap

/// Decodes a `Blob` message into the block bytes it carries (stored raw or zlib-compressed).
///
/// `Blob{1: raw, 2: raw_size, 3: zlib_data, 4: lzma_data, 5: bzip2, 6: lz4_data, 7: zstd_data}`.
enum PBFBlobContent {
    /// The uncompressed block bytes of `frame`'s blob.
    static func blockBytes(of frame: PBFFrame) throws(OSMPBFError) -> [UInt8] {
        let decoded: Result<[UInt8], OSMPBFError> = frame.blob.withUnsafeBytes { buffer in
            do {
                return .success(try decode(buffer, frame: frame))
            } catch let failure as WireFormatError {
                return .failure(.corruptBlob(blob: frame.index, offset: frame.offset, reason: failure.reason))
            } catch let failure as OSMPBFError {
                return .failure(failure)
            } catch {
                return .failure(.corruptBlob(blob: frame.index, offset: frame.offset, reason: "\(error)"))
            }
        }
        return try decoded.get()
    }

    private static func decode(_ buffer: UnsafeRawBufferPointer, frame: PBFFrame) throws -> [UInt8] {
        var reader = ProtobufReader(buffer)
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        var rawSize: Int64?
        while let (field, wireType) = try reader.readFieldKey() {
            switch field {
            case 1:
                try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "Blob")
                raw = try reader.readLengthDelimited()
            case 2:
                try ProtobufReader.expect(wireType, .varint, field: field, in: "Blob")
                rawSize = Int64(bitPattern: try reader.readVarint())
            case 3:
                try ProtobufReader.expect(wireType, .lengthDelimited, field: field, in: "Blob")
                zlib = try reader.readLengthDelimited()
            case 4, 5, 6, 7:
                let kind = [4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"][field] ?? "unknown"
                throw OSMPBFError.unsupportedCompression(blob: frame.index, offset: frame.offset, kind: kind)
            default:
                try reader.skip(wireType)
            }
        }
        if let raw {
            return Array(raw)
        }
        guard let zlib else { throw WireFormatError("the Blob carries no data (neither raw nor zlib_data)") }
        guard let rawSize else { throw WireFormatError("the zlib-compressed Blob has no raw_size") }
        guard (0...Int64(PBFBlobFramer.maximumBlobSize)).contains(rawSize) else {
            throw WireFormatError("its raw_size \(rawSize) is outside 0…32 MiB")
        }
        return try zlibInflated(zlib, expectedSize: Int(rawSize))
    }
}
