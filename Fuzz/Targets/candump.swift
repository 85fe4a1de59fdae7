// libFuzzer target: bytes as a candump -L log through its parser (the fullwidth-digit crash of
// issue 16 was here). Built by Tools/fuzz into one module with Sources/SocketCAN's log and frame
// files; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCandump(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    let (records, _) = CandumpLog.parse(text: text)
    for record in records { _ = record.line }
    return 0
}
