import ADASISv2
import GNSS
import Horizon
import RoadMap
import TestSupport
import Testing
@testable import ADASISProvider

/// With U-turns offered, a side path of probability 0 leaves the last free path indices to the
/// side paths a vehicle may take (``ProviderConfiguration/indicesKeptFromZeroProbabilityPaths``).
/// Before, a U-turn at every junction of the main path took an index in the order the tick met its
/// STUB, beside the turn of the same junction (ullanlinna at 60 s with `--max-level 3 --u-turns`:
/// 13 of the 44 side paths a receiver held were U-turns, while level-2 paths 280 m ahead went
/// stub-only; the tree on the bus covered 85.7 % of the true next 500 m, 88.0 % with the reserve).
///
/// The comb of ``CombRoad`` with U-turns offered: 61 dead ends and 61 U-turns along 480 m, twice
/// the indices there are; the drive of ``StarvedSidePathTests``.
@Suite("side paths of probability 0 leave the last free indices to paths a vehicle may take")
struct ZeroProbabilityIndexTests {
    /// Over the drive, for each second: the side paths ahead of the vehicle of probability > 0
    /// without an index, and those of probability 0 with one (after that second's ticks).
    func drive(keeping reserve: Int) throws -> (waiting: [Int], uTurnsHeld: [Int]) {
        let network = CombRoad.graph().network
        var horizon = HorizonConfiguration()
        horizon.branchModel.offersUTurns = true
        let engine = try HorizonEngine(network: network, configuration: horizon)
        var configuration = ProviderConfiguration()
        configuration.indicesKeptFromZeroProbabilityPaths = reserve
        let provider = ADASISProvider(configuration: configuration, network: network)
        var waiting: [Int] = []
        var uTurnsHeld: [Int] = []
        for second in 0...60 {
            let x = min(20 + 10 * Double(second), 450)
            _ = try CombRoad.drive(engine, provider, second: second, at: CombRoad.place(x), speed: x < 450 ? 10 : 0)
            let ahead = try CombRoad.sidePathsAhead(engine)
            waiting.append(ahead.filter { $0.probability > 0 && provider.pathIndex(of: $0.id) == nil }.count)
            uTurnsHeld.append(ahead.filter { $0.probability == 0 && provider.pathIndex(of: $0.id) != nil }.count)
        }
        return (waiting, uTurnsHeld)
    }

    @Test("the dead ends ahead wait for an index less often, and U-turns still get indices while many are free")
    func reserveServesLikelyPaths() throws {
        let kept = try drive(keeping: ProviderConfiguration().indicesKeptFromZeroProbabilityPaths)
        let none = try drive(keeping: 0)
        // The comb has more side paths than indices: without the reserve, U-turns hold indices
        // while dead ends ahead go stub-only.
        #expect(zip(none.waiting, none.uTurnsHeld).contains { $0 > 0 && $1 > 0 }, "no contest: the comb is too small")
        let waitedKept = kept.waiting.reduce(0, +)
        let waitedNone = none.waiting.reduce(0, +)
        #expect(
            waitedKept < waitedNone,
            "dead ends ahead without an index, summed over the seconds: \(waitedKept) with the reserve, \(waitedNone) without"
        )
        // Not excluded: at the start, with every index free, U-turns are announced with one.
        #expect(kept.uTurnsHeld[0] > 0, "no U-turn got an index although 55 were free")
    }
}
