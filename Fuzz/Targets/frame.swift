// libFuzzer target: one ADASIS v2 payload through the frame decoder, in both byte orders.
// Built by Tools/fuzz into one module with Sources/ADASISv2; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzFrame(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    for order in [ByteOrder.bigEndian, .littleEndian] {
        _ = try? ADASISMessage.decode(bytes, byteOrder: order)
        _ = try? FieldPacking.unpack(bytes, byteOrder: order)
    }
    return 0
}
