import ADASISv2
import GNSS
import Horizon
import RoadMap
import TestSupport
import Testing
@testable import ADASISProvider

/// More side paths than ADASIS v2 has path indices: those announced while none was free go as
/// stub-only STUBs; once indices come back, the junctions still ahead are sent again (Update) with
/// an index, and the side path's content follows. A comb: a main road east, 61 dead-end side
/// roads north, one every 8 m from 100 m to 580 m; the vehicle drives east at 10 m/s, where the
/// side paths behind it (within the trailing 200 m) and ahead (500 m) outnumber the indices, and
/// stops at 450 m (at a signal) for 17 s: nothing in its tree changes while the indices of the
/// paths it left behind come back.
@Suite("side paths announced without an index get one when indices come back")
struct StarvedSidePathTests {
    @Test("every side path ahead holds an index and content on the receiver after indices came back")
    func revived() throws {
        let network = CombRoad.graph().network
        let engine = try HorizonEngine(network: network)
        let provider = ADASISProvider(configuration: ProviderConfiguration(), network: network)
        var receiver = HorizonReconstructor(configuration: .init(trailingLength: 200))
        var starvedAtStart = 0
        for second in 0...60 {
            let x = min(20 + 10 * Double(second), 450)
            for frame in try CombRoad.drive(
                engine, provider, second: second, at: CombRoad.place(x), speed: x < 450 ? 10 : 0)
            {
                receiver.apply(frame.message, time: frame.time)
            }
            if second == 30 { starvedAtStart = provider.counters.pathIndicesExhausted }
        }
        // On the way the tree held more side paths than there are indices.
        #expect(starvedAtStart > 0, "no index ran out: the comb is too small for the test")
        // At the end the junctions behind have released theirs; every side path still
        // ahead of the vehicle has an index, and the receiver holds it below the main path with a SEGMENT.
        try CombRoad.expectSidePathsHeld(engine, provider, receiver)
    }
}
