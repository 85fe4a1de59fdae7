import RoadMap

/// Streams the elements of an .osm.pbf file block by block.
///
/// Opening reads and validates the `OSMHeader` blob; `nextBlock()` then decodes one `OSMData`
/// blob at a time (blobs of other types are skipped, as the format asks). A file is read piecewise
/// with `pread`, so a country extract is never held in memory whole. Any byte sequence yields
/// elements or a typed `OSMPBFError`; nothing traps.
public struct OSMPBFReader: Sendable {
    /// The file's header (bounding box, required features, writing program, replication timestamp).
    public let header: OSMHeader
    private var framer: PBFBlobFramer
    private var decoder = PrimitiveBlockDecoder()

    /// Opens the file at `path` and reads its header.
    public init(path: String) throws(OSMPBFError) {
        try self.init(source: .file(try OpenPBFFile(path: path)), name: path)
    }

    /// Reads a PBF file held in memory (for tests and small inputs).
    public init(data: [UInt8]) throws(OSMPBFError) {
        try self.init(source: .memory(data), name: "in-memory data")
    }

    private init(source: PBFByteSource, name: String) throws(OSMPBFError) {
        var framer = PBFBlobFramer(source: source, sourceName: name)
        guard let frame = try framer.next() else { throw .notPBF(name) }
        let block = try PBFBlobContent.blockBytes(of: frame)
        let header: OSMHeader
        do {
            header = try HeaderBlockDecoding.header(from: block)
        } catch {
            throw .corruptBlob(
                blob: frame.index, offset: frame.offset, reason: "its HeaderBlock is malformed: \(error.reason)")
        }
        if let unsupported = header.requiredFeatures.first(where: {
            !HeaderBlockDecoding.supportedFeatures.contains($0)
        }) {
            throw .missingRequiredFeature(unsupported)
        }
        self.header = header
        self.framer = framer
    }

    /// The next primitive block's elements (nodes incl. dense nodes, ways, relations), nil at end of file.
    public mutating func nextBlock() throws(OSMPBFError) -> [OSMElement]? {
        while let frame = try framer.next() {
            guard frame.type == "OSMData" else { continue }
            let block = try PBFBlobContent.blockBytes(of: frame)
            do {
                return try decoder.elements(of: block)
            } catch {
                throw .corruptBlob(
                    blob: frame.index, offset: frame.offset, reason: "its PrimitiveBlock is malformed: \(error.reason)")
            }
        }
        return nil
    }

    /// Bytes consumed so far (up to the end of the last blob read).
    public var bytesRead: Int { framer.offset }

    /// Total size of the input in bytes.
    public var totalBytes: Int { framer.totalBytes }

    /// The newest element timestamp read so far (Unix seconds, from the elements' metadata), `nil`
    /// when the file carries none: the age of the data when the header has no replication time.
    public var newestElementTimestamp: Int64? { decoder.newestTimestamp > 0 ? decoder.newestTimestamp : nil }
}
