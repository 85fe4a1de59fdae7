import CZlib

/// The CRC-32 (zlib's `crc32`) stored with each tile BLOB to detect damage on open/read.
public enum TileChecksum {
    /// The CRC-32 of `bytes`.
    public static func crc32(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
