import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider
import TestSupport

/// A straight street of 30 links of 100 m going east from (60.17, 24.94), each junction with a
/// side road north: the provider's timing, flags, budget and index rules on a known tree.
private func street() -> InMemoryRoadNetwork {
    var graph = PlaneRoadGraph()
    let limit = DirectionalAttributes(speedLimit: SpeedLimit(value: .kilometresPerHour(50), kind: .explicit))
    for i in 1...30 {
        let x = Double(i) * 100
        graph.add(UInt64(i), Int64(i - 1), Int64(i), [(x - 100, 0), (x, 0)], highway: .secondary) { link in
            link.name = "Main"
            link.forward = limit
        }
        graph.add(UInt64(100 + i), Int64(i), Int64(100 + i), [(x, 0), (x, 100)])
    }
    return graph.network
}

/// Drives the street at 10 m/s from link 1 for `seconds`, one fix per second, ticking every 100 ms.
private func drive(_ pipeline: HorizonPipeline, seconds: Int, route: [DirectedLink]? = nil, routeAt: Int? = nil) throws
    -> [ProviderFrame]
{
    var frames: [ProviderFrame] = []
    let projection = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94))
    for second in 0..<seconds {
        if second == routeAt { try pipeline.engine.setRoute(route) }
        let point = projection.unproject(x: 5 + Double(second) * 10, y: 0)
        let fix = GNSSFix(
            time: Double(second), latitude: point.latitude, longitude: point.longitude,
            horizontalAccuracy: 3, speed: 10, heading: 90)
        try pipeline.process(fix)
        for tick in 0..<10 { frames += pipeline.tick(at: Double(second) + Double(tick) / 10) }
    }
    return frames
}

@Suite("provider behaviour on a known street", .serialized)
struct ProviderBehaviourTests {
    @Test("POSITION every 100 ms on path 8; META-DATA each second at start, then every 5 s")
    func timing() throws {
        let frames = try drive(try HorizonPipeline(network: street()), seconds: 12)
        let positions = frames.filter { $0.message.type == .position }
        #expect(positions.count == 120)
        #expect(
            positions.dropFirst().allSatisfy {
                if case .position(let p) = $0.message { p.pathIndex == 8 } else { false }
            })
        let metaTimes = frames.filter { $0.message.type == .metaData }.map(\.time)
        #expect(metaTimes == [0, 1, 2, 3, 4, 5, 10])
        let counters = positions.compactMap { if case .position(let p) = $0.message { p.cyclicCounter } else { nil } }
        #expect(counters.prefix(6) == [0, 1, 2, 3, 0, 1])
        // Between the 1 Hz fixes: PositionAge grows by 100 ms per POSITION and the offset is dead-reckoned
        // at the fix speed (10 m/s → 1 m per POSITION).
        let second = positions.filter { $0.time >= 5 && $0.time < 6 }.compactMap { frame -> PositionMessage? in
            if case .position(let p) = frame.message { p } else { nil }
        }
        #expect(second.map { $0.ageMilliseconds ?? -1 } == (0..<10).map { Double($0 * 100) })
        let offsets = second.map { Int($0.offset) }
        #expect(zip(offsets.dropFirst(), offsets).allSatisfy { $0 - $1 == 1 }, "\(offsets)")
    }

    @Test("the nearby horizon is repeated with Retransmission = 1 every 2 s")
    func retransmission() throws {
        let frames = try drive(try HorizonPipeline(network: street()), seconds: 7)
        let repeated = frames.filter {
            if case .segment(let s) = $0.message { return s.isRetransmission }
            if case .stub(let s) = $0.message { return s.isRetransmission }
            return false
        }
        #expect(!repeated.isEmpty)
        #expect(Set(repeated.map { Int($0.time.rounded(.down)) }).isSubset(of: [0, 2, 4, 6]))
        #expect(repeated.allSatisfy { $0.priority == .retransmission })
    }

    @Test("setting a route re-sends the SEGMENTs already sent with Update = 1 and PartOfCalculatedRoute")
    func routeUpdate() throws {
        let route = (1...30).map { DirectedLink(LinkID(UInt64($0)), .forward) }
        let frames = try drive(try HorizonPipeline(network: street()), seconds: 6, route: route, routeAt: 3)
        let updates = frames.compactMap { frame -> SegmentMessage? in
            if case .segment(let s) = frame.message, s.isUpdate { return s } else { return nil }
        }
        #expect(!updates.isEmpty)
        #expect(updates.allSatisfy { $0.partOfCalculatedRoute == .yes })
        let before = frames.filter { $0.time < 3 }.compactMap { frame -> SegmentMessage? in
            if case .segment(let s) = frame.message { return s } else { return nil }
        }
        #expect(before.allSatisfy { $0.partOfCalculatedRoute == .unknown })
    }

    @Test("after a route is set, retransmitted SEGMENTs say whether they are on it, as the content sent since")
    func retransmissionFollowsTheRoute() throws {
        let route = (1...30).map { DirectedLink(LinkID(UInt64($0)), .forward) }
        let frames = try drive(try HorizonPipeline(network: street()), seconds: 10, route: route, routeAt: 3)
        func retransmittedSegments(_ seconds: Range<Double>) -> [SegmentMessage] {
            frames.compactMap { frame in
                guard seconds.contains(frame.time), case .segment(let s) = frame.message, s.isRetransmission else {
                    return nil
                }
                return s
            }
        }
        // Side streets' SEGMENTs: PartOfCalculatedRoute unknown without a route, "no" with it.
        let before = retransmittedSegments(0..<3)
        let after = retransmittedSegments(4..<10)
        #expect(before.contains { $0.partOfCalculatedRoute == .unknown })
        #expect(after.contains { $0.partOfCalculatedRoute == .no })
        #expect(after.allSatisfy { $0.partOfCalculatedRoute != .unknown }, "\(after.map(\.partOfCalculatedRoute))")
    }

    @Test("the bus budget caps frames per tick and sends POSITION and META-DATA first")
    func budget() throws {
        var configuration = ProviderConfiguration()
        configuration.framesPerTick = 3
        let pipeline = try HorizonPipeline(network: street(), provider: configuration)
        let frames = try drive(pipeline, seconds: 4)
        let perTick = Dictionary(grouping: frames) { ($0.time * 10).rounded() }
        #expect(perTick.values.allSatisfy { $0.count <= 3 })
        for group in perTick.values {
            let priorities = group.map(\.priority)
            #expect(priorities == priorities.sorted())
        }
        #expect(frames.filter { $0.message.type == .position }.count == 40)
        #expect(pipeline.provider.queuedFrames > 0 || frames.contains { $0.message.type == .segment })
    }

    @Test("a jump starts a new main path on an index other than the resting 8")
    func newMainPathAfterJump() throws {
        let pipeline = try HorizonPipeline(network: street())
        _ = try drive(pipeline, seconds: 3)
        let projection = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94))
        // A jump of 2.5 km, believed at its fourth fix (the matcher coasts over three as outliers).
        for second in 3...6 {
            let far = projection.unproject(x: 2505 + Double(second - 3) * 10, y: 0)
            try pipeline.process(
                GNSSFix(
                    time: Double(second), latitude: far.latitude, longitude: far.longitude, horizontalAccuracy: 3,
                    speed: 10, heading: 90))
        }
        let frames = (0..<10).flatMap { pipeline.tick(at: 6 + Double($0) / 10) }
        let indices = Set(frames.compactMap { if case .position(let p) = $0.message { p.pathIndex } else { nil } })
        #expect(indices.count == 1 && !indices.contains(8) && indices.allSatisfy { $0 >= 9 })
        #expect(pipeline.provider.counters.newMainPaths >= 1)
    }
}
