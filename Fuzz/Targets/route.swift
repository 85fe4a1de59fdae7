// libFuzzer target: bytes as an `adasis horizon --route` file (one link per line, or a previous
// drive's `adasis match` CSV) through RoutePlanning.parse (an offset_m of "nan" reached a range's
// precondition before stop 55). Built by Tools/fuzz into one module with
// Sources/Horizon/Routes/RoutePlanning.swift; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzRoute(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    if let links = try? RoutePlanning.parse(text) {
        for listed in links { _ = listed.seen.map { $0.upperBound - $0.lowerBound } }
    }
    return 0
}
