import RoadMap

/// Why an `.osm.pbf` file could not be read.
///
/// Every case that concerns the file's content names the blob (0 is the `OSMHeader` blob) and the
/// byte offset where that blob's 4-byte length prefix starts, so a broken download can be located.
public enum OSMPBFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened; `errno` is the system error number.
    case cannotOpen(String, errno: Int32)
    /// Reading the file failed after it was opened; `errno` is the system error number.
    case readFailed(String, offset: Int, errno: Int32)
    /// The file does not start with an `OSMHeader` blob (empty, or not an OSM PBF file at all).
    case notPBF(String)
    /// The file ends inside blob number `blob`, which starts at byte `offset`.
    case truncated(blob: Int, offset: Int)
    /// Blob number `blob` (starting at byte `offset`) is damaged: bad zlib data, bad protobuf, sizes out of range.
    case corruptBlob(blob: Int, offset: Int, reason: String)
    /// Blob number `blob` uses a compression this reader does not implement (`kind` is e.g. `lzma`, `zstd`).
    case unsupportedCompression(blob: Int, offset: Int, kind: String)
    /// The header lists a required feature this reader does not implement.
    case missingRequiredFeature(String)

    /// One sentence saying what went wrong, where, and what to do about it.
    public var description: String {
        switch self {
        case let .cannotOpen(path, errno):
            return "Cannot open OSM PBF file '\(path)' (errno \(errno)); check that the path exists and is readable."
        case let .readFailed(path, offset, errno):
            return
                "Reading OSM PBF file '\(path)' failed at byte \(offset) (errno \(errno)); check the disk and the file, then retry."
        case let .notPBF(path):
            return
                "'\(path)' is not an OSM PBF file (it does not start with an OSMHeader blob); pass an .osm.pbf extract such as one from download.geofabrik.de."
        case let .truncated(blob, offset):
            return
                "The OSM PBF file ends inside blob \(blob) (which starts at byte \(offset)); the file is incomplete, download it again."
        case let .corruptBlob(blob, offset, reason):
            return
                "The OSM PBF file's blob \(blob) (at byte \(offset)) is corrupt: \(reason); download the file again or re-export it with osmium."
        case let .unsupportedCompression(blob, offset, kind):
            return
                "The OSM PBF file's blob \(blob) (at byte \(offset)) uses \(kind) compression, which is not supported; convert the file with 'osmium cat -o out.osm.pbf in.osm.pbf' (zlib)."
        case let .missingRequiredFeature(feature):
            return
                "The OSM PBF file requires the feature '\(feature)', which this reader does not support (only OsmSchema-V0.6 and DenseNodes); convert it with 'osmium cat' to a plain extract."
        }
    }
}
