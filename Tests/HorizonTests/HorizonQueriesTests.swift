import Testing
import RoadMap
@testable import Horizon
import TestSupport

@Suite struct HorizonQueriesTests {
    /// Ten 100 m links east; side roads at nodes 2, 4, 6, 8; 50 km/h except link 3 (30); a tunnel
    /// on links 5–6; a 50 m radius right curve at 20…60 m of link 7; a gentle left curve from 90 m
    /// of link 2 to 50 m of link 3; a camera for the driving
    /// direction at 50 m of link 8 and one for the other direction on link 4; link 10 is a oneway
    /// dead end, so the main path ends there.
    private func engine() throws -> HorizonEngine {
        var graph = PlaneRoadGraph.street(count: 10, sideEvery: 2)
        for index in graph.links.indices where graph.links[index].id.rawValue <= 10 {
            let id = graph.links[index].id.rawValue
            graph.links[index].forward.speedLimit = SpeedLimit(
                value: .kilometresPerHour(id == 3 ? 30 : 50), kind: .explicit)
            graph.links[index].tunnel = id == 5 || id == 6
            if id == 10 { graph.links[index].oneway = .forward }  // no U-turn at the end of the street
            if id == 7 {
                graph.links[index].curvature = [
                    .init(offset: 0, value: 0), .init(offset: 20, value: 0.02),
                    .init(offset: 40, value: 0.015), .init(offset: 60, value: 0),
                ]
            }
            if id == 2 { graph.links[index].curvature = [.init(offset: 90, value: -0.012)] }
            if id == 3 { graph.links[index].curvature = [.init(offset: 50, value: 0)] }
            if id == 8 {
                graph.links[index].features = [
                    .init(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 50, direction: .forward)
                ]
            }
            if id == 4 {
                graph.links[index].features = [
                    .init(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 50, direction: .backward)
                ]
            }
        }
        // The whole street at the first fix (the growth limit: MainPathGrowthTests).
        let engine = try HorizonEngine(network: graph.network, configuration: .init(mainPathGrowthPerUpdate: .infinity))
        _ = try engine.update(onRoad(fwd(1), 10, time: 0, discontinuity: true))
        return engine
    }

    @Test func answersFromTheVehiclePosition() throws {
        let queries = try #require(try engine().queries)
        let limit = try #require(queries.nextSpeedLimitChange())
        #expect(abs(limit.distance - 190) < 1 && abs(limit.offset - 200) < 1)
        #expect(limit.previous.kilometresPerHour == 50 && limit.limit.kilometresPerHour == 30)
        let tunnel = try #require(queries.nextTunnel())
        #expect(abs(tunnel.distance - 390) < 1 && abs(tunnel.endOffset - 600) < 1)
        let curve = try #require(queries.nextCurve(minimumCurvature: 0.015))
        #expect(abs(curve.stretch.distance - 610) < 1 && abs(curve.stretch.endOffset - 660) < 1)
        #expect(abs(curve.radius - 50) < 1e-9 && curve.isRightHand)
        #expect(queries.nextCurve(minimumCurvature: 0.05) == nil)
        let camera = try #require(queries.nextCamera())
        #expect(abs(camera.distance - 740) < 1)
        #expect(camera.feature.kind == .safetyCamera(.fixedSpeed, speedLimit: 50))
        #expect(queries.nextTrafficSignals() == nil)
        let intersection = try #require(queries.nextIntersection())
        #expect(abs(intersection.distance - 190) < 1 && intersection.branches.count == 2)
    }

    @Test func answersFollowTheVehicle() throws {
        let engine = try engine()
        _ = try engine.update(onRoad(fwd(5), 50, time: 0.5))  // cheap update inside the tunnel
        var queries = try #require(engine.queries)
        #expect(queries.nextTunnel()?.distance == 0)
        #expect(queries.nextSpeedLimitChange() == nil)  // 50 km/h to the end of the street
        #expect(abs(queries.nextIntersection()!.offset - 600) < 1)
        _ = try engine.update(onRoad(fwd(7), 30, time: 2))
        queries = try #require(engine.queries)
        #expect(queries.nextCurve(minimumCurvature: 0.01)?.stretch.distance == 0)  // inside the curve
        _ = try engine.update(onRoad(fwd(8), 60, time: 4))
        queries = try #require(engine.queries)
        #expect(queries.nextCurve(minimumCurvature: 0.01) == nil)
        #expect(queries.nextCamera() == nil)  // 10 m behind
        #expect(queries.nextTunnel() == nil)
    }

    @Test func curveReachingFromThePreviousLinkIsUnderTheVehicle() throws {
        let engine = try engine()
        let ahead = try #require(engine.queries?.nextCurve(minimumCurvature: 0.01))
        #expect(abs(ahead.stretch.distance - 180) < 1 && !ahead.isRightHand && abs(ahead.radius - 1 / 0.012) < 1e-6)
        _ = try engine.update(onRoad(fwd(3), 10, time: 0.5))
        let under = try #require(engine.queries?.nextCurve(minimumCurvature: 0.01))
        #expect(under.stretch.distance == 0 && abs(under.stretch.endOffset - 250) < 1)
    }

    @Test func noQueriesWithoutATree() throws {
        let engine = try HorizonEngine(network: PlaneRoadGraph.fourWay().network)
        #expect(engine.queries == nil)
    }
}
