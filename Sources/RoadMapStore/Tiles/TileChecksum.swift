import CZlib
import RoadMap

/// The CRC-32 (zlib's `crc32`) stored with each tile BLOB to detect damage on open/read.
package enum TileChecksum {
    /// The CRC-32 of `bytes`.
    package static func crc32(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
