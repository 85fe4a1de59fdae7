// libFuzzer target: bytes as the JSON traffic feed (Docs/traffic-feed.md) applied at a fixed
// time, and every OpenLR reference of the records it keeps decoded. Built by Tools/fuzz into one
// module with Sources/Traffic and Sources/OpenLR; not part of `swift build`.
import Foundation
import OpenLR

/// 2026-11-25T12:01:00Z, a minute after the seed feeds were generated.
private let appliedAt = Date(timeIntervalSince1970: 1_764_072_060)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTraffic(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: count))
    guard let feed = try? TrafficFeedParser.parse(bytes, now: appliedAt) else { return 0 }
    for record in feed.flow {
        if case .openLR(let text) = record.location { _ = try? OpenLRBinary.decode(base64: text) }
    }
    _ = feed.skipped.map(\.description)
    return 0
}
