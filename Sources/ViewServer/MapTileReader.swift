import Foundation
import MapTiles
import RoadMap
import RoadMapStore

/// Road tiles from a map file that may be replaced while it is served (`adasis map import -o`
/// onto the same path): before each tile the file's identity is checked, and a new file is
/// opened in place of the old one, with the tile cache emptied. A replacement that cannot be
/// opened (missing, half written, not a map) makes tiles fail with the reason until a good
/// file appears; the server goes on.
public final class MapTileReader {
    /// Why a tile could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        public var description: String
    }

    /// The map file's path.
    public let path: String
    /// How many times a replaced map file was opened.
    public private(set) var reopenings = 0
    private var source: RoadTileSource<MapFile>?
    private var identity: FileIdentity?

    /// Opens the map at `path`.
    public init(path: String) throws {
        self.path = path
        identity = FileIdentity(path: path)
        source = RoadTileSource(network: try MapFile(path: path))
    }

    /// The encoded road tile at `address`.
    public func tile(_ address: TileAddress) throws -> [UInt8] {
        let current = FileIdentity(path: path)
        if current != identity || source == nil {
            guard current != nil else {
                source = nil
                throw Failure(
                    description: "the map file \(path) is gone: put a map file there again (adasis map import)")
            }
            do {
                source = RoadTileSource(network: try MapFile(path: path))
                identity = current
                reopenings += 1
            } catch {
                source = nil
                identity = nil
                throw Failure(description: "the map file \(path) was replaced and cannot be opened: \(error)")
            }
        }
        guard let source else { throw Failure(description: "the map file \(path) is not open") }
        return try source.tile(address)
    }
}

/// Which file a path names, and when it last changed: a replacement (a rename over it) changes
/// the inode, an overwrite in place the modification time or size.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int
    var modifiedNanoseconds: Int

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim.tv_sec
        modifiedNanoseconds = status.st_mtim.tv_nsec
    }
}
