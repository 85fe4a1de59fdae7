// libFuzzer target: bytes as a map tile's payload. The CRC-32 the store keeps in front of each
// tile is computed here, so the fuzzer reaches the decoder instead of the checksum check (a
// damaged tile with a stale CRC is refused before decoding). Built by Tools/fuzz into one module
// with Sources/RoadMapStore/Tiles; not part of `swift build`.
import RoadMap

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTile(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let payload = Array(UnsafeBufferPointer(start: data, count: count))
    let crc = TileChecksum.crc32(of: payload)
    let blob = [
        UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8),
        UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 24),
    ] + payload
    _ = try? TileCodec.decode(blob, tile: TileKey(row: 9000, column: 20500))
    return 0
}
