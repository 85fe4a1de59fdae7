import ADASISv2
import GNSS
import Horizon
import RoadMap
import TestSupport
import Testing
@testable import ADASISProvider

/// When indices come back fewer than the side paths that went without one, a revival gives them
/// to the shallowest paths first, then the likeliest at their junction, then the nearest — not to
/// whichever junction its walk reaches first (ullanlinna, noisy, 47–80 s: a level-2 path the branch
/// model rated 0.32, on the true route, waited 33 s behind unlikely ones nearer the main path).
///
/// The comb of ``CombRoad`` with every third dead end a primary road (likelier to be taken than the
/// residential ones); the drive of ``StarvedSidePathTests``: east at 10 m/s, where the far dead
/// ends wait for indices until those of the dead ends left behind come back, a few at a time.
@Suite("a revival gives scarce indices to the likeliest side paths first")
struct RevivalOrderTests {
    @Test("no side path gets an index at a revival while a likelier one of its level waits")
    func likeliestFirst() throws {
        let network = CombRoad.graph { $0 % 3 == 0 ? .primary : .residential }.network
        let engine = try HorizonEngine(network: network)
        let provider = ADASISProvider(configuration: ProviderConfiguration(), network: network)
        var contested = 0
        var waitingBefore: Set<PathID> = []
        for second in 0...60 {
            let x = min(20 + 10 * Double(second), 450)
            _ = try CombRoad.drive(engine, provider, second: second, at: CombRoad.place(x), speed: x < 450 ? 10 : 0)
            // Level-1 side paths ahead of the vehicle, as they stand after this second's ticks.
            let ahead = try CombRoad.sidePathsAhead(engine)
            let waiting = ahead.filter { provider.pathIndex(of: $0.id) == nil }
            // The paths that waited a second ago and hold an index now: a revival's (the dead ends
            // have no siblings, so nothing else sends their junction's STUB again).
            let served = ahead.filter { waitingBefore.contains($0.id) && provider.pathIndex(of: $0.id) != nil }
            if !served.isEmpty && !waiting.isEmpty { contested += 1 }
            for path in served {
                let likelier = waiting.filter { $0.probability > path.probability + 1e-9 }
                #expect(
                    likelier.isEmpty,
                    "\(second) s: the path at \(path.branchOffset ?? -1) m (p \(path.probability)) got an index while \(likelier.count) likelier ones wait"
                )
            }
            waitingBefore = Set(waiting.map(\.id))
        }
        #expect(contested > 0, "no revival had fewer indices than waiting paths: the test exercises no choice")
    }
}
