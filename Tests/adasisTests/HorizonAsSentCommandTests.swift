import Foundation
import TestSupport
import Testing

/// `adasis horizon --as-sent`: the tree a receiver holds, not the engine's. ADASIS v2 has 56 path
/// indices; a side path without one goes as a stub-only STUB and has no content on the bus.
@Suite("adasis horizon --as-sent: only the side paths the provider gave a path index", .serialized)
struct HorizonAsSentCommandTests {
    /// The JSON lines of `adasis horizon` on the noisy kruununhaka drive with `options`.
    static func lines(_ options: [String]) throws -> [[String: Any]] {
        try HorizonPeerOptionsTests.lines(options, drive: "kruununhaka-noisy")
    }

    static func sidePathIDs(_ line: [String: Any]) -> Set<Int> {
        Set(((line["side_paths"] as? [[String: Any]]) ?? []).compactMap { $0["path_id"] as? Int })
    }

    @Test("the same fixes and main paths; side paths a subset of the engine's, fewer where indices run out")
    func subset() throws {
        for options in [[String](), ["--max-level", "3", "--u-turns"]] {
            let engine = try Self.lines(options)
            let sent = try Self.lines(options + ["--as-sent"])
            #expect(sent.count == engine.count, "\(options)")
            var engineCount = 0, sentCount = 0
            for (all, held) in zip(engine, sent) {
                #expect(all["time_s"] as? Double == held["time_s"] as? Double)
                #expect(all["main_path"] as? [[String: Double]] == held["main_path"] as? [[String: Double]])
                #expect(
                    Self.sidePathIDs(held).isSubset(of: Self.sidePathIDs(all)), "\(options) at \(all["time_s"] ?? "?")")
                engineCount += Self.sidePathIDs(all).count
                sentCount += Self.sidePathIDs(held).count
            }
            // Measured: default tree 6 975 of 12 246 side paths (over all fixes) hold an index on the
            // bus; level 3 with U-turns 8 005 of 51 516: a city tree that deep wants far more than 56.
            #expect(sentCount < engineCount, "\(options): \(sentCount) of \(engineCount)")
            #expect(sentCount > engineCount / (options.isEmpty ? 3 : 10), "\(options): \(sentCount) of \(engineCount)")
        }
    }

    @Test("--as-sent runs the causal matcher: not with --lag")
    func notWithLag() throws {
        try requireBuiltAdasis()
        let result = try runAdasis(
            [
                "horizon", "--map", try GoldenFrameTests.mapPath.get(), "--as-sent", "--lag", "2",
                Repository.url("Data/drives/kruununhaka-noisy.csv").path,
            ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--as-sent"), "\(result.stderr)")
    }
}
