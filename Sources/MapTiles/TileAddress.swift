import Foundation
import RoadMap

/// Why a tile address was refused.
public enum TileAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The zoom is outside what is served.
    case zoomOutOfRange(zoom: Int, supported: ClosedRange<Int>)
    /// `x` or `y` is not a tile of that zoom (0 ..< 2^zoom).
    case tileOutOfRange(zoom: Int, x: Int, y: Int)
    /// The text is not `z/x/y` with whole numbers.
    case malformed(String)

    public var description: String {
        switch self {
        case .zoomOutOfRange(let zoom, let supported):
            return "zoom \(zoom) is not served: use a zoom from \(supported.lowerBound) to \(supported.upperBound)"
        case .tileOutOfRange(let zoom, let x, let y):
            let count = 1 << zoom
            return "tile \(zoom)/\(x)/\(y) does not exist: x and y must be from 0 to \(count - 1) at zoom \(zoom)"
        case .malformed(let text):
            return "'\(text)' is not a tile address: expected z/x/y with whole numbers, such as 14/9326/4742"
        }
    }
}

/// A tile of the Web Mercator tiling scheme (as used by MapLibre, OpenStreetMap and XYZ tile
/// servers): zoom, column from the antimeridian eastwards, row from the north edge southwards.
public struct TileAddress: Hashable, Sendable, CustomStringConvertible {
    /// Zooms any tile address may have (2^z tiles per axis must fit the grid arithmetic).
    public static let zooms = 0...24
    /// The zoom.
    public let zoom: Int
    /// The column.
    public let x: Int
    /// The row.
    public let y: Int

    /// A checked address.
    public init(zoom: Int, x: Int, y: Int) throws(TileAddressError) {
        guard Self.zooms.contains(zoom) else { throw .zoomOutOfRange(zoom: zoom, supported: Self.zooms) }
        let count = 1 << zoom
        guard (0..<count).contains(x), (0..<count).contains(y) else { throw .tileOutOfRange(zoom: zoom, x: x, y: y) }
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// Parses `z/x/y` (as in a `/tiles/{z}/{x}/{y}.pbf` request).
    public init(parsing text: Substring) throws(TileAddressError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCII) }),
            let zoom = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2])
        else { throw .malformed(String(text)) }
        try self.init(zoom: zoom, x: x, y: y)
    }

    /// The tile containing `point` at `zoom`.
    public init(containing point: GeoPoint, zoom: Int) throws(TileAddressError) {
        let world = Self.worldPosition(point, zoom: zoom)
        let count = Double(1 << max(0, min(zoom, Self.zooms.upperBound)))
        try self.init(
            zoom: zoom, x: Int(max(0, min(count - 1, world.x.rounded(.down)))),
            y: Int(max(0, min(count - 1, world.y.rounded(.down)))))
    }

    /// `z/x/y`.
    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// The position of `point` in tile units at `zoom` (x east, y south, from the north-west
    /// corner of the world), latitudes clamped to Web Mercator's ±85.0511°.
    public static func worldPosition(_ point: GeoPoint, zoom: Int) -> (x: Double, y: Double) {
        let count = Double(1 << zoom)
        let latitude = max(-85.051_128_78, min(85.051_128_78, point.latitude)) * .pi / 180
        let x = (point.longitude + 180) / 360 * count
        let y = (1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * count
        return (x, y)
    }

    /// The geographic point at world position (`x`, `y`) in tile units at `zoom`.
    public static func point(worldX x: Double, worldY y: Double, zoom: Int) -> GeoPoint {
        let count = Double(1 << zoom)
        let longitude = x / count * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * y / count))) * 180 / .pi
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// `point` in this tile's grid of `extent` units per edge (may lie outside 0 ..< extent).
    public func gridPosition(_ point: GeoPoint, extent: UInt32) -> (x: Double, y: Double) {
        let world = Self.worldPosition(point, zoom: zoom)
        return ((world.x - Double(x)) * Double(extent), (world.y - Double(y)) * Double(extent))
    }

    /// The geographic point at grid position (`gridX`, `gridY`) of this tile.
    public func point(gridX: Double, gridY: Double, extent: UInt32) -> GeoPoint {
        Self.point(
            worldX: Double(x) + gridX / Double(extent), worldY: Double(y) + gridY / Double(extent), zoom: zoom)
    }
}
