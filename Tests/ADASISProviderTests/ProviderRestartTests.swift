import ADASISv2
import GNSS
import Horizon
import Testing
@testable import ADASISProvider
import TestSupport

/// After the CAN interface comes back (``ADASISProvider/restartHorizon(at:)``) the whole horizon
/// goes out again on new indices: side paths already sent to their frontier, which the ticks pass
/// over while the tree stays the same, are sent again too.
@Suite("restarting the horizon")
struct ProviderRestartTests {
    @Test("every path held before a restart gets a new index and its SEGMENTs again, with no new fix")
    func restartResendsEveryPath() throws {
        var configuration = ProviderConfiguration()
        // Long enough to tick for seconds after the last fix without the tree going stale.
        configuration.positionStaleAfter = 30
        // Indices freed by the restart may be given out again at once, so none run short.
        configuration.pathIndexReuseDelay = 0
        let pipeline = try HorizonPipeline(network: try SampleDrives.map(), provider: configuration)
        let fixes = try SampleDrives.fixes("kamppi", noisy: true)
        for fix in fixes.prefix(40) {
            try pipeline.process(fix)
            for tick in 0..<10 { _ = pipeline.tick(at: fix.time + Double(tick) / 10) }
        }
        let last = fixes[39].time
        // A second more with no fix: every side path is sent to its frontier and rests.
        for tick in 10..<20 { _ = pipeline.tick(at: last + Double(tick) / 10) }
        let provider = pipeline.provider
        let heldBefore = Set(provider.indexOfPath.indices.keys)
        try #require(heldBefore.count >= 3, "the drive should hold a main path and side paths here")

        provider.restartHorizon(at: last + 2)
        var frames: [ProviderFrame] = []
        for tick in 20..<80 { frames += pipeline.tick(at: last + Double(tick) / 10) }

        #expect(Set(provider.indexOfPath.indices.keys) == heldBefore)
        let segmentIndices = Set(
            frames.compactMap { frame -> UInt8? in
                if case .segment(let segment) = frame.message { segment.pathIndex } else { nil }
            })
        for (id, index) in provider.indexOfPath.indices {
            #expect(segmentIndices.contains(index), "path \(id) on index \(index) got no SEGMENT after the restart")
        }
    }
}
