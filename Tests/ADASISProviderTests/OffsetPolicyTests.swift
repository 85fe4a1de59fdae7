import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider
import TestSupport

/// A 10 km straight road (100 links of 100 m) driven at 30 m/s: the main path grows past 8191 m.
@Suite("offset policy on a long road", .serialized)
struct OffsetPolicyTests {
    static func road() -> InMemoryRoadNetwork {
        var graph = PlaneRoadGraph(origin: GeoPoint(latitude: 60.0, longitude: 24.0))
        for i in 1...100 {
            let x = Double(i) * 100
            graph.add(UInt64(i), Int64(i - 1), Int64(i), [(x - 100, 0), (x, 0)], oneway: .forward, highway: .motorway)
        }
        return graph.network
    }

    static func positions(policy: OffsetPolicy) throws -> [PositionMessage] {
        var configuration = ProviderConfiguration()
        configuration.offsetPolicy = policy
        let pipeline = try HorizonPipeline(network: road(), provider: configuration)
        let projection = LocalProjection(origin: GeoPoint(latitude: 60.0, longitude: 24.0))
        var result: [PositionMessage] = []
        for second in 0..<320 {
            let point = projection.unproject(x: 10 + Double(second) * 30, y: 0)
            try pipeline.process(
                GNSSFix(
                    time: Double(second), latitude: point.latitude, longitude: point.longitude,
                    horizontalAccuracy: 3, speed: 30, heading: 90))
            result += pipeline.tick(at: Double(second)).compactMap {
                if case .position(let p) = $0.message { p } else { nil }
            }
        }
        return result.filter { $0.pathIndex >= 8 }
    }

    @Test("wrap: one main path whose offsets wrap modulo 8191; a receiver unwraps them")
    func wrap() throws {
        let positions = try Self.positions(policy: .wrap)
        #expect(Set(positions.map(\.pathIndex)) == [8])
        #expect(positions.contains { $0.offset < 200 } && positions.contains { $0.offset > 8000 })
        var reconstructor = HorizonReconstructor()
        var previous: Int?
        for (index, position) in positions.enumerated() {
            reconstructor.apply(.position(position), time: Double(index))
            let absolute = try #require(reconstructor.horizon.vehicleOffset)
            if let previous { #expect(absolute >= previous) }
            previous = absolute
        }
        #expect((previous ?? 0) > 8191)
    }

    @Test("new path: a second main path starts before the window reaches 8191 m; offsets stay below")
    func newPath() throws {
        let positions = try Self.positions(policy: .newPathBeforeWrap)
        let indices = positions.map(\.pathIndex)
        #expect(Set(indices).count == 2 && indices.first == 8 && indices.last != 8)
        #expect(positions.allSatisfy { Double($0.offset) <= ProviderConfiguration().newPathOffset + 1 })
    }
}
