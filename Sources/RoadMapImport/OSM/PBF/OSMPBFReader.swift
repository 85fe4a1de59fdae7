#if canImport(Glibc)
    import Glibc
#endif
import RoadMap

/// Streams the elements of an .osm.pbf file block by block.
///
/// Opening reads and validates the `OSMHeader` blob; `nextBlock()` then decodes one `OSMData`
/// blob at a time (blobs of other types are skipped, as the format asks). A file is read piecewise
/// with `pread`, so a country extract is never held in memory whole. Any byte sequence yields
/// elements or a typed `OSMPBFError`; nothing traps.
///
/// With `threads` > 1, blobs are inflated and decoded in batches of `2 × threads` on other
/// threads while the caller works on the previous batch: at most two batches of compressed and
/// decoded blocks are held at once. Blocks, errors and their order are the same as with one thread.
public struct OSMPBFReader: Sendable {
    /// The file's header (bounding box, required features, writing program, replication timestamp).
    public let header: OSMHeader
    private var framer: PBFBlobFramer
    private let threads: Int
    /// The kinds of element decoded.
    private let kinds: OSMElementKinds
    /// Decoded blocks not yet returned, in file order.
    private var ready: [Result<DecodedPBFBlock, OSMPBFError>] = []
    private var readyIndex = 0
    /// The error to throw once `ready` is consumed (a framing error after its blobs).
    private var readyError: OSMPBFError?
    /// The next batch, being decoded; nil at the end of the file or after a framing error.
    private var next: PBFDecodingBatch?
    private var consumedOffset = 0
    private var newestTimestamp: Int64 = 0

    /// Opens the file at `path` and reads its header; `threads` decode blobs (default: one per core).
    /// Only elements of `kinds` are decoded and returned: a pass that needs no nodes skips the
    /// dense-node blocks that make up most of an extract (their blobs are still inflated, and a
    /// damaged one is found by the pass that decodes them).
    public init(path: String, threads: Int = OSMPBFReader.defaultThreads, kinds: OSMElementKinds = .all)
        throws(OSMPBFError)
    {
        try self.init(source: .file(try OpenPBFFile(path: path)), name: path, threads: threads, kinds: kinds)
    }

    /// Reads a PBF file held in memory (for tests and small inputs).
    public init(data: [UInt8], threads: Int = 1, kinds: OSMElementKinds = .all) throws(OSMPBFError) {
        try self.init(source: .memory(data), name: "in-memory data", threads: threads, kinds: kinds)
    }

    /// One decoding thread per active core.
    public static var defaultThreads: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    private init(source: PBFByteSource, name: String, threads: Int, kinds: OSMElementKinds) throws(OSMPBFError) {
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
        self.threads = max(1, threads)
        self.kinds = kinds
        self.consumedOffset = framer.offset
        self.next = startBatch()
    }

    /// The next primitive block's elements (nodes incl. dense nodes, ways, relations, those of the
    /// kinds asked for), nil at end of file; a block with none of them gives an empty list.
    public mutating func nextBlock() throws(OSMPBFError) -> [OSMElement]? {
        while true {
            if readyIndex < ready.count {
                let result = ready[readyIndex]
                ready[readyIndex] = .success(DecodedPBFBlock(elements: [], newestTimestamp: 0, endOffset: 0))
                readyIndex += 1
                let block = try result.get()
                consumedOffset = block.endOffset
                newestTimestamp = max(newestTimestamp, block.newestTimestamp)
                return block.elements
            }
            if let error = readyError { throw error }
            guard let batch = next else {
                consumedOffset = framer.offset
                return nil
            }
            ready = batch.waitForResults()
            readyIndex = 0
            readyError = batch.trailingError
            next = readyError == nil ? startBatch() : nil
        }
    }

    /// Frames the next `2 × threads` `OSMData` blobs and starts decoding them; nil at the end.
    private mutating func startBatch() -> PBFDecodingBatch? {
        var frames: [(frame: PBFFrame, endOffset: Int)] = []
        var failure: OSMPBFError?
        while frames.count < 2 * threads {
            do {
                guard let frame = try framer.next() else { break }
                if frame.type == "OSMData" { frames.append((frame, framer.offset)) }
            } catch {
                failure = error
                break
            }
        }
        if frames.isEmpty && failure == nil { return nil }
        return PBFDecodingBatch(frames: frames, trailingError: failure, threads: threads, kinds: kinds)
    }

    /// Bytes consumed so far (up to the end of the last blob whose block was returned).
    public var bytesRead: Int { consumedOffset }

    /// Total size of the input in bytes.
    public var totalBytes: Int { framer.totalBytes }

    /// The newest element timestamp read so far (Unix seconds, from the elements' metadata), `nil`
    /// when the file carries none: the age of the data when the header has no replication time.
    public var newestElementTimestamp: Int64? { newestTimestamp > 0 ? newestTimestamp : nil }
}
