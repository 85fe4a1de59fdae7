// libFuzzer target: bytes as the daemon's TOML configuration, parsed and validated as
// `adasis run --config` reads it. Built by Tools/fuzz into one module with
// Sources/DaemonConfiguration; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTOML(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    _ = try? TOMLDocument(parsing: text)
    _ = try? DaemonConfiguration(toml: text, source: "fuzz.toml")
    return 0
}
