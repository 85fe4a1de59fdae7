import Testing
import Horizon
import GNSS
import RoadMap
@testable import ADASISProvider

@Suite("stream continuity across a provider replacement")
struct StreamContinuityTests {
    @Test("cyclic counters go on where the replaced provider stopped")
    func countersContinue() {
        let network = InMemoryRoadNetwork(links: [])
        let first = ADASISProvider(configuration: ProviderConfiguration(), network: network)
        var positions: [UInt8] = []
        for tick in 0..<3 {
            positions += first.tick(at: Double(tick) * 0.1).compactMap {
                if case .position(let p) = $0.message { p.cyclicCounter } else { nil }
            }
        }
        let second = ADASISProvider(configuration: ProviderConfiguration(), network: network)
        second.continueStream(from: first)
        positions += second.tick(at: 0.3).compactMap {
            if case .position(let p) = $0.message { p.cyclicCounter } else { nil }
        }
        #expect(positions == [0, 1, 2, 3])
    }
}

@Suite("POSITION when not on a road")
struct PositionOffRoadTests {
    @Test("off road inside the map: path index 2; outside the map's area: 1; no fix yet: 0")
    func pathIndices() {
        var configuration = ProviderConfiguration()
        configuration.digitisedArea = [60.16, 24.93, 60.18, 24.96]
        let provider = ADASISProvider(configuration: configuration, network: InMemoryRoadNetwork(links: []))
        func position(at time: Double) -> UInt8? {
            provider.tick(at: time).compactMap { if case .position(let p) = $0.message { p.pathIndex } else { nil } }
                .first
        }
        #expect(position(at: 0) == 0)
        let inside = GeoPoint(latitude: 60.17, longitude: 24.94), outside = GeoPoint(latitude: 60.3, longitude: 24.94)
        provider.ingest(
            fix: GNSSFix(time: 0.1, latitude: inside.latitude, longitude: inside.longitude),
            match: MatchResult(time: 0.1, state: .offRoad(point: inside), discontinuity: true),
            tree: PathTree(), vehicleOffset: nil, events: [], routeActive: false)
        #expect(position(at: 0.1) == 2)
        provider.ingest(
            fix: GNSSFix(time: 0.2, latitude: outside.latitude, longitude: outside.longitude),
            match: MatchResult(time: 0.2, state: .offRoad(point: outside), discontinuity: false),
            tree: PathTree(), vehicleOffset: nil, events: [], routeActive: false)
        #expect(position(at: 0.2) == 1)
        #expect(position(at: 5) == 0)  // the fix is stale: unknown
    }
}
