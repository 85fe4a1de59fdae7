import RoadMap

/// Appends compact binary values to a tile BLOB: LEB128 varints, zigzag signed varints and
/// delta-coded geometry in 1e-7 degree units.
package struct TileByteWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    package init() {}

    /// Appends an unsigned LEB128 varint.
    package mutating func writeVarint(_ value: UInt64) {
        var remaining = value
        while remaining >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: remaining) | 0x80)
            remaining >>= 7
        }
        bytes.append(UInt8(remaining))
    }

    /// Appends a signed value as a zigzag varint (small magnitudes take one byte).
    package mutating func writeSignedVarint(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends raw bytes.
    package mutating func writeBytes<Bytes: Sequence<UInt8>>(_ raw: Bytes) {
        bytes.append(contentsOf: raw)
    }

    /// Appends a polyline: its point count, then each point as a delta in 1e-7 degrees from the
    /// previous one (the first from 0,0).
    package mutating func writeGeometry(_ points: [GeoPoint]) {
        writeVarint(UInt64(points.count))
        var previousLatitude: Int64 = 0, previousLongitude: Int64 = 0
        for point in points {
            let latitude = TileCoordinate.fixedPoint(point.latitude)
            let longitude = TileCoordinate.fixedPoint(point.longitude)
            writeSignedVarint(latitude - previousLatitude)
            writeSignedVarint(longitude - previousLongitude)
            previousLatitude = latitude
            previousLongitude = longitude
        }
    }
}

/// Conversion between degrees and the 1e-7 degree fixed point used in tiles (about 1 cm).
package enum TileCoordinate {
    /// Units per degree.
    package static let unitsPerDegree = 10_000_000.0

    /// Degrees → 1e-7 degree units, rounded to nearest.
    package static func fixedPoint(_ degrees: Double) -> Int64 {
        Int64((degrees * unitsPerDegree).rounded())
    }

    /// 1e-7 degree units → degrees.
    package static func degrees(_ fixedPoint: Int64) -> Double {
        Double(fixedPoint) / unitsPerDegree
    }
}
