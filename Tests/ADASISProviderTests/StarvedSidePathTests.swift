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
            let time = Double(second)
            let x = min(20 + 10 * time, 450)
            let (link, offset) = CombRoad.place(x)
            let match = MatchResult(
                time: time,
                state: .onRoad(
                    MatchedPosition(link: link, offset: offset, point: PlaneRoadGraph.origin, confidence: 1)),
                discontinuity: false)
            let events = try engine.update(match)
            provider.ingest(
                fix: GNSSFix(time: time, latitude: 60.17, longitude: 24.94, speed: x < 450 ? 10 : 0), match: match,
                tree: engine.tree, vehicleOffset: engine.vehicleOffset, events: events, routeActive: false)
            for tick in 0..<10 {
                for frame in provider.tick(at: time + Double(tick) / 10) {
                    receiver.apply(frame.message, time: frame.time)
                }
            }
            if second == 30 { starvedAtStart = provider.counters.pathIndicesExhausted }
        }
        // On the way the tree held more side paths than there are indices.
        #expect(starvedAtStart > 0, "no index ran out: the comb is too small for the test")
        // At the end the junctions behind have released theirs; every side path still
        // ahead of the vehicle has an index, and the receiver holds it below the main path with a SEGMENT.
        let vehicle = try #require(engine.vehicleOffset)
        let main = try #require(engine.tree.mainPath)
        let ahead = engine.tree.paths.values.filter { $0.parent == main.id && ($0.branchOffset ?? 0) > vehicle }
        #expect(ahead.count >= 10)
        let mainIndex = try #require(receiver.horizon.mainPathIndex)
        for path in ahead {
            let index = try #require(
                provider.pathIndex(of: path.id), "side path at \(path.branchOffset ?? -1) m has no index")
            let held = try #require(receiver.horizon.paths[index], "index \(index) not held by the receiver")
            #expect(held.parent == mainIndex)
            #expect(!held.segments.isEmpty, "index \(index): no SEGMENT")
        }
    }
}
