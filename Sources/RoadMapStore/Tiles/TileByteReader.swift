import RoadMap

/// Why a tile BLOB could not be decoded.
public enum TileDecodingError: Error, Hashable, Sendable {
    /// The BLOB ended inside a value starting at `offset`.
    case truncated(offset: Int)
    /// A varint at `offset` is longer than 10 bytes.
    case overlongVarint(offset: Int)
    /// A count at `offset` is larger than the bytes left could hold (corrupt data).
    case implausibleCount(Int, offset: Int)
    /// A value at `offset` is not valid for `field` (e.g. an unknown enum code).
    case invalidValue(field: String, offset: Int)
}

/// Reads the values written by ``TileByteWriter`` from a tile BLOB, checking bounds.
package struct TileByteReader: Sendable {
    private let bytes: [UInt8]
    /// The next byte to read.
    package private(set) var offset: Int = 0

    /// Creates a reader over `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// How many bytes are left to read.
    package var remainingCount: Int { bytes.count - offset }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset >= bytes.count }

    /// Reads an unsigned LEB128 varint.
    @inline(__always)
    package mutating func readVarint() throws(TileDecodingError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw .truncated(offset: start) }
            guard shift < 64 else { throw .overlongVarint(offset: start) }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// Reads a zigzag signed varint.
    package mutating func readSignedVarint() throws(TileDecodingError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads `count` raw bytes.
    package mutating func readBytes(_ count: Int) throws(TileDecodingError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw .truncated(offset: offset) }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// Reads a polyline written by ``TileByteWriter/writeGeometry(_:)``.
    package mutating func readGeometry() throws(TileDecodingError) -> [GeoPoint] {
        let countOffset = offset
        let count = try readVarint()
        // Each point takes at least two bytes.
        guard count <= UInt64(bytes.count - offset) / 2 else {
            throw .implausibleCount(Int(clamping: count), offset: countOffset)
        }
        var points: [GeoPoint] = []
        points.reserveCapacity(Int(count))
        var latitude: Int64 = 0, longitude: Int64 = 0
        for _ in 0..<count {
            latitude &+= try readSignedVarint()
            longitude &+= try readSignedVarint()
            points.append(
                GeoPoint(
                    latitude: TileCoordinate.degrees(latitude),
                    longitude: TileCoordinate.degrees(longitude)))
        }
        return points
    }
}
