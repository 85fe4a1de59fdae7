import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
import TestSupport
@testable import ADASISProvider

/// The unsure-fork rule on a real drive: mannerheimintie's noisy trace passes the fork of
/// Mannerheimintie and Postikatu (20° apart) at 12–15 s, with fixes about as near to one as to
/// the other, and the matcher's best state flips between them.
@Suite("unsure fork on the sample drive", .serialized)
struct UnsureForkDriveTests {
    /// Replays the noisy mannerheimintie drive; counts the main path's changes (a turn onto a side
    /// path or a new tree), the fixes held on the main path, and the alternative POSITIONs sent
    /// while a fix was held.
    static func replay(rule: UnsureFork?) throws -> (changes: Int, held: [Double], alternatives: Int) {
        let map = try SampleDrives.map(for: "mannerheimintie")
        var horizon = HorizonConfiguration()
        horizon.unsureFork = rule
        // The matcher as it was before dead reckoning was fused (stop 54): with the fused
        // positions its best state no longer flips at this fork, and the rule stays for receivers
        // without speed and course, whose fixes the matcher takes as they are.
        var matching = MatcherConfiguration()
        matching.fusesDeadReckoning = false
        let pipeline = try HorizonPipeline(
            network: map, matcher: OnlineMapMatcher(network: map, configuration: matching), horizon: horizon)
        var changes = 0, alternatives = 0
        var held: [Double] = []
        var holding = false
        try pipeline.replay(
            try SampleDrives.fixes("mannerheimintie", noisy: true),
            onFix: { fix, match, events in
                changes += events.filter { if case .mainPathChanged = $0 { true } else { false } }.count
                holding = pipeline.lastMatch?.state.position != match.state.position
                if holding {
                    held.append(fix.time)
                    // Held on the main path, at the matcher's state there.
                    let main = pipeline.engine.tree.mainPath
                    #expect(main?.links.contains { $0.link == pipeline.lastMatch?.state.position?.link } == true)
                }
            },
            frame: { frame in
                if holding, case .position(let position) = frame.message, position.positionIndex > 0 {
                    alternatives += 1
                }
            })
        return (changes, held, alternatives)
    }

    @Test("the main path stays through the flips, and the matched side road goes as a second POSITION")
    func holdsAtTheFork() throws {
        let with = try Self.replay(rule: UnsureFork())
        let without = try Self.replay(rule: nil)
        #expect(without.held.isEmpty)
        #expect(with.held.contains { (12...15).contains($0) }, "held at \(with.held)")
        // Measured: 50 POSITIONs with PositionIndex 1 in the held fixes' cycles (held at 12, 14, 15,
        // 92 and 93 s).
        #expect(with.alternatives > 0)
        // Measured: 8 changes of the main path without the rule, 4 with it.
        #expect(with.changes < without.changes, "\(with.changes) changes with the rule, \(without.changes) without")
    }
}
