// libFuzzer target: bytes as an OSM PBF file: blob framing, zlib inflation and primitive block
// decoding, block by block. Built by Tools/fuzz into one module with
// Sources/RoadMapImport/OSM/PBF; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPBF(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard var reader = try? OSMPBFReader(data: bytes) else { return 0 }
    var blocks = 0
    while blocks < 64, let elements = try? reader.nextBlock() {
        _ = elements.count
        blocks += 1
    }
    return 0
}
