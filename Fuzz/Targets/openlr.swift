// libFuzzer target: bytes as an OpenLR binary line location reference (as the traffic feed's
// `openlr` members carry them, base64-decoded), and the same bytes as base64 text. A reference
// that decodes must encode again and decode to itself. Built by Tools/fuzz into one module with
// Sources/OpenLR; not part of `swift build`.

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOpenLR(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    if let reference = try? OpenLRBinary.decode(bytes: bytes) {
        guard let encoded = try? OpenLRBinary.encodeBytes(reference),
            let again = try? OpenLRBinary.decode(bytes: encoded)
        else { fatalError("a decoded reference does not encode again: \(reference)") }
        precondition(again == reference, "the round trip changed the reference: \(reference) → \(again)")
    }
    _ = try? OpenLRBinary.decode(base64: String(decoding: bytes, as: UTF8.self))
    return 0
}
