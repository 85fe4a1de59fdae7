import Foundation
import RoadMap

/// Terrain height from SRTM `.hgt` tiles (one file per 1°×1° cell, named by its south-west corner,
/// e.g. `N60E024.hgt`; 1201×1201 or 3601×3601 big-endian 16-bit metres, rows from north to south,
/// −32768 = void), by bilinear interpolation.
///
/// Tiles are read when first needed through a reader (a directory's files, or bytes a test holds),
/// and at most ``tileCapacity`` decoded tiles are kept (least recently used goes first): a 1" tile
/// takes 26 MB, a 3" tile 2.9 MB. Cells without a tile are remembered as missing.
public struct ElevationModel: Sendable {
    /// Reads the bytes of a tile by file name (`N60E024.hgt`); `nil` when there is no such tile.
    public typealias TileReader = @Sendable (String) throws(ElevationError) -> Data?

    /// How many decoded tiles are kept at once.
    public let tileCapacity: Int
    /// Where the tiles come from (a directory), prefixed to file names in errors.
    public let source: String
    /// Tile files read so far (each read decodes one tile).
    public private(set) var tileReads = 0
    private let readTile: TileReader
    private var tiles: [ElevationCell: (tile: ElevationTile, lastUse: Int)] = [:]
    private var missing = Set<ElevationCell>()
    private var uses = 0

    /// A model whose tiles come from `readTile`; `source` (e.g. the directory) names them in errors.
    public init(source: String = "", tileCapacity: Int = 4, readTile: @escaping TileReader) {
        self.source = source
        self.tileCapacity = max(1, tileCapacity)
        self.readTile = readTile
    }

    /// A model reading the tiles of `directory` (file names as SRTM writes them, upper or lower
    /// case); fails when `directory` is not a directory.
    public init(directory: String, tileCapacity: Int = 4) throws(ElevationError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ElevationError(path: directory, problem: .notADirectory)
        }
        self.init(source: directory, tileCapacity: tileCapacity) { name throws(ElevationError) in
            for candidate in [name, name.lowercased()] {
                let path = (directory as NSString).appendingPathComponent(candidate)
                guard FileManager.default.fileExists(atPath: path) else { continue }
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ElevationError(path: path, problem: .unreadable)
                }
                return data
            }
            return nil
        }
    }

    /// Metres above sea level at `point`; `nil` where no tile covers it or a sample is void.
    /// Throws for a tile that exists but is malformed or unreadable.
    public mutating func elevation(at point: GeoPoint) throws(ElevationError) -> Double? {
        let cell = ElevationCell(containing: point)
        guard let tile = try tile(cell) else { return nil }
        return tile.height(at: point, in: cell)
    }

    private mutating func tile(_ cell: ElevationCell) throws(ElevationError) -> ElevationTile? {
        uses += 1
        if let cached = tiles[cell] {
            tiles[cell]?.lastUse = uses
            return cached.tile
        }
        if missing.contains(cell) { return nil }
        guard let data = try readTile(cell.fileName) else {
            missing.insert(cell)
            return nil
        }
        tileReads += 1
        let path = source.isEmpty ? cell.fileName : (source as NSString).appendingPathComponent(cell.fileName)
        let tile = try ElevationTile(data: data, path: path)
        if tiles.count >= tileCapacity, let oldest = tiles.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            tiles[oldest] = nil
        }
        tiles[cell] = (tile, uses)
        return tile
    }
}
