import Foundation
import RoadMap

/// A fixed-size map tile of 0.01° × 0.01° (about 1.1 km × 0.55 km at Helsinki's latitude).
///
/// `row` counts 0.01° steps north from 90° S, `column` 0.01° steps east from 180° W, so both are
/// non-negative and a tile key packs into 32 bits (row < 18 000, column < 36 000).
public struct TileKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Tile edge length in degrees.
    public static let sizeDegrees = 0.01
    /// Number of tile rows (south to north).
    public static let rowCount: UInt32 = 18_000
    /// Number of tile columns (west to east).
    public static let columnCount: UInt32 = 36_000

    /// Row index from the south pole.
    public let row: UInt32
    /// Column index from the antimeridian, eastwards.
    public let column: UInt32

    /// The tile with the given row and column (clamped into range).
    public init(row: UInt32, column: UInt32) {
        self.row = min(row, TileKey.rowCount - 1)
        self.column = min(column, TileKey.columnCount - 1)
    }

    /// The tile containing `point`.
    public init(containing point: GeoPoint) {
        let row = ((point.latitude + 90) / TileKey.sizeDegrees).rounded(.down)
        let column = ((point.longitude + 180) / TileKey.sizeDegrees).rounded(.down)
        self.init(
            row: UInt32(max(0, min(row, Double(TileKey.rowCount - 1)))),
            column: UInt32(max(0, min(column, Double(TileKey.columnCount - 1)))))
    }

    /// The key packed into 32 bits (row-major), as stored in the map file.
    public var packed: UInt32 { row * TileKey.columnCount + column }

    /// The key for a packed value, or `nil` when it is out of range.
    public init?(packed: UInt32) {
        guard packed < TileKey.rowCount * TileKey.columnCount else { return nil }
        self.init(row: packed / TileKey.columnCount, column: packed % TileKey.columnCount)
    }

    /// The south-west corner.
    public var southWest: GeoPoint {
        GeoPoint(
            latitude: Double(row) * TileKey.sizeDegrees - 90,
            longitude: Double(column) * TileKey.sizeDegrees - 180)
    }

    /// The tiles whose area intersects the square of half-size `radius` metres around `point`
    /// (what a "links within R metres" query must look at).
    public static func covering(_ point: GeoPoint, radius: Double) -> [TileKey] {
        let metresPerDegreeLatitude = GeoPoint.earthRadius * .pi / 180
        let latitudeSpan = radius / metresPerDegreeLatitude
        let longitudeSpan = radius / (metresPerDegreeLatitude * max(0.01, cos(point.latitude * .pi / 180)))
        let southWest = TileKey(
            containing: GeoPoint(latitude: point.latitude - latitudeSpan, longitude: point.longitude - longitudeSpan))
        let northEast = TileKey(
            containing: GeoPoint(latitude: point.latitude + latitudeSpan, longitude: point.longitude + longitudeSpan))
        var keys: [TileKey] = []
        for row in southWest.row...northEast.row {
            for column in southWest.column...northEast.column {
                keys.append(TileKey(row: row, column: column))
            }
        }
        return keys
    }

    public static func < (lhs: TileKey, rhs: TileKey) -> Bool { lhs.packed < rhs.packed }

    /// Hashes as its packed value does.
    public func hash(into hasher: inout Hasher) { hasher.combine(packed) }
    /// The packed value's ``IdentifierHash``: the map file finds a cached tile by its key at every
    /// link it reads, and a dictionary asks for this rather than building a `Hasher`.
    public func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(UInt64(packed), seed: seed) }

    /// `row/column`.
    public var description: String { "tile \(row)/\(column)" }
}

extension LinkID {
    /// A link identifier encoding the tile that stores the link and its index in that tile:
    /// tile in the upper 32 bits, index in the lower 32.
    public init(tile: TileKey, index: UInt32) {
        self.init(UInt64(tile.packed) << 32 | UInt64(index))
    }

    /// The tile that stores this link (`nil` if the identifier was not made by this scheme).
    public var tile: TileKey? { TileKey(packed: UInt32(truncatingIfNeeded: rawValue >> 32)) }

    /// The link's index within its tile.
    public var indexInTile: UInt32 { UInt32(truncatingIfNeeded: rawValue) }
}
