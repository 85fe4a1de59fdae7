// libFuzzer target: bytes as an NMEA log, line by line through the fix assembler (as
// TraceFile and the daemon's NMEA source read them). Built by Tools/fuzz into one module with
// Sources/GNSS; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzNMEA(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    var assembler = NMEAFixAssembler()
    var number = 0
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
        number += 1
        _ = assembler.add(line: line, lineNumber: number)
    }
    _ = assembler.finish()
    _ = assembler.skipped.description
    return 0
}
