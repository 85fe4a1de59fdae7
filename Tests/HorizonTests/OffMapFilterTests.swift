import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct OffMapFilterTests {
    private let configuration = MatcherConfiguration()

    /// The log emission of a fix `sigmas` σ from a road, driven in its heading.
    private func emission(_ sigmas: Double) -> Double { -0.5 * sigmas * sigmas }

    @Test("fixes 4 σ from every road leave the map at the third; long off it, fixes on a road rejoin it at the third")
    func evidenceOfAFewFixesLeavesAndRejoins() {
        var filter = OffMapFilter(configuration)
        let onTheRoad = (0..<20).map { _ in filter.update(bestEmission: emission(1), configuration) }
        #expect(onTheRoad.allSatisfy { !$0 })
        let leaving = (0..<10).map { _ in filter.update(bestEmission: emission(4), configuration) }
        #expect(leaving == [false, false] + Array(repeating: true, count: 8))
        let rejoining = (0..<4).map { _ in filter.update(bestEmission: emission(0.5), configuration) }
        #expect(rejoining == [true, true, false, false])
    }

    @Test("fixes 3 σ from a road, as 5 m noise gives one in a hundred, never leave the map")
    func noiseAtTheEdgeStaysOnTheMap() {
        var filter = OffMapFilter(configuration)
        let states = (0..<200).map { _ in filter.update(bestEmission: emission(2.9), configuration) }
        #expect(states.allSatisfy { !$0 })
    }

    @Test("a vehicle that has left every road behind needs evidence to rejoin, and the filter stays finite")
    func leavingWithoutCandidates() {
        var filter = OffMapFilter(configuration)
        filter.leave(configuration)
        let stillOff = filter.update(bestEmission: emission(0), configuration)
        #expect(stillOff)
        var extreme = configuration
        extreme.offMapSwitchPenalty = 1e9
        var sure = OffMapFilter(extreme.sanitised)
        for _ in 0..<10 { _ = sure.update(bestEmission: emission(100), extreme.sanitised) }
        #expect(sure.logOdds.isFinite && sure.logOdds > 0)
        for _ in 0..<10 { _ = sure.update(bestEmission: 0, extreme.sanitised) }
        #expect(sure.logOdds.isFinite)
    }

    /// A two-way road along y = 0 from x = 0 to 2000 m (id 1); a bypass the map lacks leaves it
    /// at x = 400 and runs 25 m north of it from x = 450 to 1200, rejoining at x = 1250.
    private let bypass: [(Double, Double)] = [(0, 0), (400, 0), (450, 25), (1200, 25), (1250, 0), (2000, 0)]

    private func drive(seed: UInt64, configuration: MatcherConfiguration) throws -> (SimulatedDrive, [MatchResult]) {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (2000, 0)])
        let drive = SimulatedDrive(path: bypass, speed: { _ in 12 }, duration: 160, noise: 5, seed: seed)
        let matcher = OnlineMapMatcher(network: g.network, configuration: configuration)
        return (drive, try drive.fixes.map { try matcher.match($0) })
    }

    @Test("a road the map lacks 25 m beside one it has is off road, not that road; the way back is a recovery")
    func aBypassTheMapLacksIsOffRoad() throws {
        for seed: UInt64 in [1, 2, 3] {
            let (drive, results) = try drive(seed: seed, configuration: configuration)
            let onBypass = drive.truth.indices.filter { drive.truth[$0].y > 24 }
            let declared = onBypass.filter { results[$0].state.name == "off_road" }
            #expect(declared.count * 10 >= onBypass.count * 9, "seed \(seed): \(declared.count) of \(onBypass.count)")
            let left = drive.truth.indices.first { drive.truth[$0].x > 400 }!
            #expect(results[..<left].allSatisfy { $0.state.name == "on_road" }, "seed \(seed)")
            let back = drive.truth.indices.first { drive.truth[$0].x > 1250 }!
            let lastOff = try #require(results.lastIndex { $0.state.name == "off_road" })
            let rejoined = lastOff + 1
            #expect(rejoined <= back + 3 && results[rejoined].discontinuity, "seed \(seed): on road at \(rejoined)")
            #expect(results[rejoined...].allSatisfy { $0.state.position?.link.link == LinkID(1) })
        }
    }

    @Test("the fixed-lag matcher (adasis match --lag 3) keeps the off-map fixes off road")
    func fixedLagKeepsOffMapFixes() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (2000, 0)])
        let drive = SimulatedDrive(path: bypass, speed: { _ in 12 }, duration: 160, noise: 5, seed: 1)
        let online = OnlineMapMatcher(network: g.network)
        let onlineStates = try drive.fixes.map { try online.match($0).state.name }
        let lagged = FixedLagMatcher(matcher: OnlineMapMatcher(network: g.network), lag: 3)
        var laggedStates = try drive.fixes.flatMap { try lagged.match($0) }.map(\.state.name)
        laggedStates += lagged.finish().map(\.state.name)
        #expect(laggedStates == onlineStates)
        #expect(onlineStates.filter { $0 == "off_road" }.count >= 50)
    }

    @Test("without the filter the same drive is matched to the road 25 m away")
    func withoutTheFilterTheBypassIsMatchedToTheRoad() throws {
        var old = configuration
        old.offMapDistance = 0
        let (drive, results) = try drive(seed: 1, configuration: old)
        let onBypass = drive.truth.indices.filter { drive.truth[$0].y > 24 }
        #expect(onBypass.filter { results[$0].state.name == "on_road" }.count * 2 > onBypass.count)
    }

    @Test("a drive on the map with 5 m noise has no fix off road, and none is counted")
    func noiseOnTheMapIsNotOffRoad() throws {
        var g = PlaneRoadGraph()
        g.add(1, 0, 1, [(0, 0), (2000, 0)])
        for seed: UInt64 in 1...5 {
            let drive = SimulatedDrive(
                path: [(0, 0), (2000, 0)], speed: { _ in 12 }, duration: 160, noise: 5, seed: seed)
            let matcher = OnlineMapMatcher(network: g.network)
            let results = try drive.fixes.map { try matcher.match($0) }
            #expect(results.allSatisfy { $0.state.name == "on_road" }, "seed \(seed)")
            #expect(matcher.offMapFixes == 0)
        }
    }
}
