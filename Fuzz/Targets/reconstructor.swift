// libFuzzer target: a stream of ADASIS v2 payloads (8 bytes each, the input cut in pieces)
// through the horizon reconstructor, as `adasis reconstruct` applies a candump log.
// Built by Tools/fuzz into one module with Sources/ADASISv2; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzReconstructor(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    var reconstructor = HorizonReconstructor()
    var time = 0.0
    var start = 0
    while start + 8 <= bytes.count {
        try? reconstructor.apply(payload: Array(bytes[start..<start + 8]), time: time)
        time += 0.01
        start += 8
    }
    _ = reconstructor.horizon.paths.count
    return 0
}
