// libFuzzer target: bytes as a gpsd JSON watcher stream through the stream decoder, fed in two
// pieces split by the first byte (a line cut across reads). Built by Tools/fuzz into one module
// with Sources/GNSS; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzGPSD(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let first = bytes.first else { return 0 }
    let cut = min(bytes.count, 1 + Int(first) * bytes.count / 256)
    var decoder = GPSDStreamDecoder()
    _ = decoder.feed(bytes[1..<max(1, cut)])
    _ = decoder.feed(bytes[max(1, cut)...])
    _ = decoder.feed([UInt8(ascii: "\n")])
    return 0
}
