import ADASISv2
import Horizon
import Testing
import TestSupport
@testable import ADASISProvider

/// The round trip of ``RoundTripTests`` (every path with its parent and branch offset, SEGMENTs,
/// curvature spots and road objects) on trees deeper than the default: level 3 with U-turn side
/// paths, and level 4 with a one-link level 5 and zero-probability paths. Deep trees use up the
/// 56 path indices, so they exercise index reuse, stub-only STUBs and resets far more.
@Suite("deep trees: reconstructed horizon equals the predicted one", .serialized)
struct DeepTreeRoundTripTests {
    static func levelThreeWithUTurns() -> HorizonConfiguration {
        var horizon = HorizonConfiguration()
        horizon.maximumLevel = 3
        horizon.branchModel.offersUTurns = true
        return horizon
    }

    /// On kamppi the first tree took every index; the reset at the first moving fix (direction
    /// turned round) then found none free for the new main path, reported no position for 10 s and
    /// gave the new main path index 8 again. The receiver had never re-rooted, so it kept the old
    /// path 8's SEGMENTs where the new path had none (lanes 1/1 instead of 3/7 from 16.9 s).
    @Test("level 3 and U-turns, every drive, all messages and profiles", arguments: SampleDriveList.names)
    func levelThree(drive: String) throws {
        let (compared, fixes, mismatches, checked) = try RoundTripTests.compare(
            drive: drive, preset: .all, horizon: Self.levelThreeWithUTurns())
        if !SampleDriveList.suburbNames.contains(drive) { #expect(checked[.trafficSignals, default: 0] > 0) }
        #expect(compared >= fixes * 6 / 10, "compared only \(compared) of \(fixes) fixes")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }

    @Test("level 4, one-link level 5, zero-probability paths and U-turns on kamppi, all messages and profiles")
    func levelFour() throws {
        var horizon = Self.levelThreeWithUTurns()
        horizon.maximumLevel = 4
        horizon.addsOneLinkLevel = true
        horizon.keepsZeroProbabilityPaths = true
        let (compared, fixes, mismatches, checked) = try RoundTripTests.compare(
            drive: "kamppi", preset: .all, horizon: horizon)
        #expect(checked[.trafficSignals, default: 0] > 0)
        #expect(compared >= fixes * 6 / 10, "compared only \(compared) of \(fixes) fixes")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }

    /// U-turns off side paths too (stop 63): on the drives that turn round, the U-turn paths go
    /// back the way the vehicle came, and far more of them compete for the path indices.
    @Test(
        "level 3 with U-turns off side paths, the noisy drives that turn round",
        arguments: ["esplanadi", "kaisaniemi", "uturn"])
    func uTurnsOffSidePaths(drive: String) throws {
        var horizon = Self.levelThreeWithUTurns()
        horizon.uTurnsOffSidePaths = true
        let (compared, fixes, mismatches, _) = try RoundTripTests.compare(
            drive: drive, preset: .all, horizon: horizon, noisy: true)
        #expect(compared >= fixes * 5 / 10, "compared only \(compared) of \(fixes) fixes")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }

    /// The 5 m noise traces: the matcher's flips between roads rebuild and promote paths far more
    /// often than on the clean traces, and indices come back and are reused under the same parent
    /// (stop 52 found content overtaking the STUB that re-placed its index, on kamppi above).
    @Test(
        "level 4, one-link level 5, zero-probability paths and U-turns, every noisy drive",
        arguments: SampleDriveList.names)
    func levelFourNoisy(drive: String) throws {
        var horizon = Self.levelThreeWithUTurns()
        horizon.maximumLevel = 4
        horizon.addsOneLinkLevel = true
        horizon.keepsZeroProbabilityPaths = true
        let (compared, fixes, mismatches, _) = try RoundTripTests.compare(
            drive: drive, preset: .all, horizon: horizon, noisy: true)
        #expect(compared >= fixes * 5 / 10, "compared only \(compared) of \(fixes) fixes")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(3))")
    }
}
