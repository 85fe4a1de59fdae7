import RoadMap

/// Why a map file could not be opened, read or written.
public enum MapFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case cannotOpen(path: String, reason: String)
    /// The file is not an adasis map (not SQLite, or SQLite without our tables).
    case notAMap(path: String, reason: String)
    /// The map was written by a newer version of adasis.
    case newerFormat(path: String, version: Int, supported: Int)
    /// The map was written by an older version of adasis, in a format this one no longer reads.
    case olderFormat(path: String, version: Int, supported: Int)
    /// A tile failed its integrity check.
    case damagedTile(path: String, TileIntegrityError)
    /// The safety-location index's copy of a link failed its integrity check (`nil`: the index
    /// names the link but holds no copy of it).
    case damagedSafetyLink(path: String, link: LinkID, TileIntegrityError?)
    /// No link with this identifier in the map.
    case unknownLink(LinkID)
    /// Writing the map failed; nothing was left at the destination.
    case writeFailed(path: String, reason: String)
    /// SQLite failed while reading.
    case readFailed(path: String, reason: String)

    /// One sentence: what happened, where, what to do.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open map file \(path): \(reason). Check the path, or build a map with `adasis map import`."
        case .notAMap(let path, let reason):
            return
                "\(path) is not an adasis map (\(reason)). Build one with `adasis map import INPUT.osm.pbf -o \(path)`."
        case .newerFormat(let path, let version, let supported):
            return
                "\(path) uses map format \(version), this adasis reads up to \(supported). Update adasis or re-import the map."
        case .olderFormat(let path, let version, let supported):
            return
                "\(path) uses map format \(version) of an older adasis (this one reads format \(supported) only; 2 added road objects, 3 each link's longest way on, 4 its turns, 5 the index of the links holding a safety location). Re-import the map with `adasis map import`."
        case .damagedTile(let path, let error):
            return
                "\(path) is damaged: \(TileIntegrityDescription.describe(error)). Re-import the map or restore it from a copy."
        case .damagedSafetyLink(let path, let link, let error):
            let what = error.map(TileIntegrityDescription.describe) ?? "missing copy (the index names the link)"
            return
                "\(path) is damaged: the safety-location index's copy of link \(link): \(what). Re-import the map or restore it from a copy."
        case .unknownLink(let id):
            return "no link \(id) in the map (an identifier from another map or map version?)."
        case .writeFailed(let path, let reason):
            return "could not write map \(path): \(reason). Nothing was written; check free space and permissions."
        case .readFailed(let path, let reason):
            return "reading map \(path) failed: \(reason)."
        }
    }
}

/// Human wording of tile integrity errors.
enum TileIntegrityDescription {
    static func describe(_ error: TileIntegrityError) -> String {
        switch error {
        case .checksumMismatch(let tile, let stored, let computed):
            return "\(tile) fails its checksum (stored \(hex(stored)), computed \(hex(computed)))"
        case .unsupportedVersion(let tile, let version):
            return "\(tile) has tile format \(version), newer than this reader's \(TileCodec.formatVersion)"
        case .olderVersion(let tile, let version):
            return
                "\(tile) has tile format \(version), older than this reader's \(TileCodec.formatVersion) (re-import the map)"
        case .undecodable(let tile, let reason):
            return "\(tile) cannot be decoded (\(reason))"
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
