import CZlib
import RoadMap

/// Inflates a zlib stream whose uncompressed size is known in advance (`uncompress` from zlib).
///
/// Throws when the stream is damaged or does not inflate to exactly `expectedSize` bytes.
func zlibInflated(_ compressed: UnsafeRawBufferPointer, expectedSize: Int) throws(WireFormatError) -> [UInt8] {
    guard expectedSize >= 0 else { throw WireFormatError("raw_size \(expectedSize) is negative") }
    guard let source = compressed.baseAddress?.assumingMemoryBound(to: Bytef.self), !compressed.isEmpty else {
        throw WireFormatError("zlib data is empty")
    }
    var status: Int32 = Z_OK
    var producedSize = 0
    // One spare byte: a stream that inflates to more than expectedSize fills it and is reported.
    let capacity = expectedSize + 1
    var output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
        var outputLength = uLongf(capacity)
        // capacity ≥ 1, so the buffer has an address.
        status = uncompress(buffer.baseAddress!, &outputLength, source, uLong(compressed.count))
        producedSize = Int(outputLength)
        initialized = status == Z_OK || status == Z_BUF_ERROR ? producedSize : 0
    }
    switch status {
    case Z_OK:
        guard producedSize == expectedSize else {
            throw WireFormatError("zlib data inflates to \(producedSize) bytes but raw_size says \(expectedSize)")
        }
        output.removeLast(output.count - expectedSize)
        return output
    case Z_BUF_ERROR where producedSize >= capacity:
        throw WireFormatError("zlib data inflates to more than raw_size (\(expectedSize) bytes)")
    case Z_BUF_ERROR:
        throw WireFormatError("zlib data ends early (inflated \(producedSize) of \(expectedSize) bytes)")
    case Z_DATA_ERROR:
        throw WireFormatError("zlib data is invalid (inflate reported a data error)")
    case Z_MEM_ERROR:
        throw WireFormatError("zlib ran out of memory inflating \(expectedSize) bytes")
    default:
        throw WireFormatError("zlib failed with status \(status)")
    }
}
