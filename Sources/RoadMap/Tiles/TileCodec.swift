/// Why a tile BLOB was rejected as a whole.
public enum TileIntegrityError: Error, Hashable, Sendable {
    /// The stored CRC-32 does not match the payload: the tile is damaged.
    case checksumMismatch(tile: TileKey, stored: UInt32, computed: UInt32)
    /// The tile was written in a newer tile format than this reader understands.
    case unsupportedVersion(tile: TileKey, version: UInt64)
    /// The payload could not be decoded (see the wrapped error for where).
    case undecodable(tile: TileKey, TileDecodingError)
}

/// Encodes the links of one tile into a BLOB and back.
///
/// BLOB layout: 4-byte little-endian CRC-32 of the rest, then the tile format version (varint),
/// the link count (varint) and the links (``RoadLinkCoding``).
public enum TileCodec {
    /// The tile format version written by this code.
    public static let formatVersion: UInt64 = 1

    /// The BLOB for `links`.
    public static func encode(_ links: [RoadLink]) -> [UInt8] {
        var writer = TileByteWriter()
        writer.writeVarint(formatVersion)
        writer.writeVarint(UInt64(links.count))
        for link in links { RoadLinkCoding.encode(link, into: &writer) }
        let crc = TileChecksum.crc32(of: writer.bytes)
        return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8),
                UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 24)] + writer.bytes
    }

    /// The links in the BLOB of `tile`, after checking its checksum and version.
    public static func decode(_ blob: [UInt8], tile: TileKey) throws(TileIntegrityError) -> [RoadLink] {
        guard blob.count >= 4 else {
            throw .undecodable(tile: tile, .truncated(offset: 0))
        }
        let stored = UInt32(blob[0]) | UInt32(blob[1]) << 8 | UInt32(blob[2]) << 16 | UInt32(blob[3]) << 24
        let payload = Array(blob[4...])
        let computed = TileChecksum.crc32(of: payload)
        guard stored == computed else {
            throw .checksumMismatch(tile: tile, stored: stored, computed: computed)
        }
        var reader = TileByteReader(payload)
        do {
            let version = try reader.readVarint()
            guard version <= formatVersion else { throw TileIntegrityError.unsupportedVersion(tile: tile, version: version) }
            let count = try reader.readVarint()
            guard count <= UInt64(reader.remainingCount) else {
                throw TileIntegrityError.undecodable(tile: tile, .implausibleCount(Int(clamping: count), offset: 1))
            }
            var links: [RoadLink] = []
            links.reserveCapacity(Int(count))
            for _ in 0..<count { links.append(try RoadLinkCoding.decode(from: &reader)) }
            return links
        } catch let error as TileIntegrityError {
            throw error
        } catch let error as TileDecodingError {
            throw .undecodable(tile: tile, error)
        } catch {
            throw .undecodable(tile: tile, .truncated(offset: reader.offset))
        }
    }
}
