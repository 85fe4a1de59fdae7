import Dispatch
import RoadMap

/// One decoded `OSMData` block with what the reader reports about it.
struct DecodedPBFBlock: Sendable {
    /// The block's elements, in file order.
    var elements: [OSMElement]
    /// Newest element timestamp of the block (Unix seconds), 0 when none.
    var newestTimestamp: Int64
    /// File offset just past the block's blob.
    var endOffset: Int
}

/// A batch of compressed blobs being decoded, on other threads or already done.
///
/// Results are written once per slot by the decoding threads and read only after `finished`
/// is signalled, so the unchecked `Sendable` is sound.
final class PBFDecodingBatch: @unchecked Sendable {
    private var results: [Result<DecodedPBFBlock, OSMPBFError>]
    /// A framing error met right after the batch's blobs; thrown once their blocks are consumed.
    let trailingError: OSMPBFError?
    private let finished = DispatchSemaphore(value: 0)

    /// Decodes the elements of `kinds` of `frames` (with the file offsets past each) on `threads`
    /// threads; with one thread, right here.
    init(
        frames: [(frame: PBFFrame, endOffset: Int)], trailingError: OSMPBFError?, threads: Int, kinds: OSMElementKinds
    ) {
        self.results = Array(
            repeating: .success(DecodedPBFBlock(elements: [], newestTimestamp: 0, endOffset: 0)),
            count: frames.count)
        self.trailingError = trailingError
        if threads <= 1 {
            for (slot, item) in frames.enumerated() {
                results[slot] = Self.decode(item.frame, endOffset: item.endOffset, kinds: kinds)
            }
            finished.signal()
            return
        }
        DispatchQueue.global().async {
            self.results.withUnsafeMutableBufferPointer { slots in
                let slots = UnsafeSlots(base: slots.baseAddress)
                DispatchQueue.concurrentPerform(iterations: frames.count) { slot in
                    slots.base?.advanced(by: slot).pointee = Self.decode(
                        frames[slot].frame, endOffset: frames[slot].endOffset, kinds: kinds)
                }
            }
            self.finished.signal()
        }
    }

    /// The decoded blocks in file order (a failure stands in for its blob), once all are done.
    func waitForResults() -> [Result<DecodedPBFBlock, OSMPBFError>] {
        finished.wait()
        finished.signal()
        return results
    }

    private static func decode(_ frame: PBFFrame, endOffset: Int, kinds: OSMElementKinds) -> Result<
        DecodedPBFBlock, OSMPBFError
    > {
        do {
            let block = try PBFBlobContent.blockBytes(of: frame)
            var decoder = PrimitiveBlockDecoder()
            do {
                let elements = try decoder.elements(of: block, kinds: kinds)
                return .success(
                    DecodedPBFBlock(elements: elements, newestTimestamp: decoder.newestTimestamp, endOffset: endOffset))
            } catch {
                return .failure(
                    .corruptBlob(
                        blob: frame.index, offset: frame.offset,
                        reason: "its PrimitiveBlock is malformed: \(error.reason)"))
            }
        } catch {
            return .failure(error)
        }
    }
}

/// The result slots' base address, handed to the decoding threads (each writes only its own slot).
private struct UnsafeSlots: @unchecked Sendable {
    var base: UnsafeMutablePointer<Result<DecodedPBFBlock, OSMPBFError>>?
}
