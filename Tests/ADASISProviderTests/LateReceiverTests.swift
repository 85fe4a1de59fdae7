import ADASISv2
import Horizon
import Testing

@testable import ADASISProvider

/// A receiver that starts listening in the middle of a drive (an ECU that boots late or was
/// restarted) has only retransmission to learn what was sent before: every 2 s, within the bus
/// budget left over, the provider repeats the nearby horizon. What it needs first is the main path
/// around the vehicle.
@Suite("a receiver that joins late", .serialized)
struct LateReceiverTests {
    /// The main path's SEGMENT and STUB offsets from the vehicle to 400 m ahead, as `horizon` holds them.
    static func nearMainPath(_ horizon: ReconstructedHorizon) -> Set<String> {
        guard let main = horizon.mainPath, let vehicle = horizon.vehicleOffset else { return [] }
        let near = vehicle...(vehicle + 400)
        let segments = main.segments.keys.filter(near.contains).map { "SEGMENT \($0)" }
        let stubs = main.stubs.flatMap { offset, stubs in
            near.contains(offset) ? stubs.map { "STUB \(offset) → \($0.subPathIndex)" } : []
        }
        return Set(segments + stubs)
    }

    /// Joins every 20 s of `drive` (noisy trace) and returns (main-path items held 2.5 s after
    /// joining, items a receiver listening from the start holds then, joins with all of them).
    static func join(drive: String) throws -> (held: Int, expected: Int, complete: Int, joins: Int) {
        let map = try SampleDrives.map(for: drive)
        let pipeline = try HorizonPipeline(
            network: map, matcher: OnlineMapMatcher(network: map), horizon: HorizonConfiguration(),
            provider: ProviderConfiguration())
        let fixes = try SampleDrives.fixes(drive, noisy: true)
        guard let first = fixes.first, let last = fixes.last else { return (0, 0, 0, 0) }
        var frames: [ProviderFrame] = []
        try pipeline.replay(fixes) { frames.append($0) }
        var held = 0, expected = 0, complete = 0, joins = 0
        for joinAt in stride(from: first.time + 20, to: last.time - 10, by: 20) {
            let look = joinAt + 2.5
            var full = HorizonReconstructor(), late = HorizonReconstructor()
            for frame in frames where frame.time <= look {
                full.apply(frame.message, time: frame.time)
                if frame.time >= joinAt { late.apply(frame.message, time: frame.time) }
            }
            let want = nearMainPath(full.horizon)
            guard !want.isEmpty, late.horizon.mainPathIndex == full.horizon.mainPathIndex else { continue }
            let got = nearMainPath(late.horizon).intersection(want)
            joins += 1
            held += got.count
            expected += want.count
            if got == want { complete += 1 }
        }
        return (held, expected, complete, joins)
    }

    @Test("2.5 s after joining it holds the main path's next 400 m, whatever its path index")
    func holdsTheMainPathSoon() throws {
        var held = 0, expected = 0, complete = 0, joins = 0
        for drive in ["kamppi", "ullanlinna", "mannerheimintie"] {
            let result = try Self.join(drive: drive)
            held += result.held
            expected += result.expected
            complete += result.complete
            joins += result.joins
        }
        // Measured (stop 28, 36 joins): 321 of 329 items held, 34 joins complete. With
        // retransmission in path-index order, as before, 116 of 329 and 10: the rounds' room went to
        // the side paths of lower indices, and the main path's only came again as it was new.
        #expect(joins >= 30, "\(joins) joins")
        #expect(Double(held) >= 0.9 * Double(expected), "held \(held) of \(expected)")
        #expect(complete >= joins * 3 / 4, "complete in \(complete) of \(joins) joins")
    }
}
