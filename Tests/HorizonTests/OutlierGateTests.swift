import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

/// The matcher's outlier gate (``MatcherConfiguration/outlierGateSigmas``): fixes far from where
/// the vehicle can be are coasted over instead of matched.
@Suite struct OutlierGateTests {
    /// A main street along y = 0 from x = 0 to 1000 (links 1…5, 200 m each) and a parallel street
    /// along y = 60 (links 31…35), joined by cross streets every 200 m (links 21…24).
    private func parallelStreets() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        for k in 0..<5 {
            let x0 = Double(k) * 200, x1 = Double(k + 1) * 200
            g.add(UInt64(k + 1), Int64(k), Int64(k + 1), [(x0, 0), (x1, 0)])
            g.add(UInt64(31 + k), Int64(100 + k), Int64(101 + k), [(x0, 60), (x1, 60)])
        }
        for k in 1...4 {
            let x = Double(k) * 200
            g.add(UInt64(20 + k), Int64(k), Int64(100 + k), [(x, 0), (x, 60)])
        }
        return g
    }

    private static let mainStreet = Set((1...5).map { LinkID(UInt64($0)) })

    /// A drive east along the main street at 10 m/s with 3 m noise, the fixes at `moved` put 60 m
    /// north, onto the parallel street (multipath off the buildings across the street).
    private func drive(moved: Set<Int>) -> SimulatedDrive {
        var drive = SimulatedDrive(path: [(20, 0), (980, 0)], speed: { _ in 10 }, duration: 80, noise: 3, seed: 5)
        let plane = LocalProjection(origin: PlaneRoadGraph.origin)
        for k in moved {
            let (x, y) = plane.project(GeoPoint(latitude: drive.fixes[k].latitude, longitude: drive.fixes[k].longitude))
            let p = plane.unproject(x: x, y: y + 60)
            drive.fixes[k].latitude = p.latitude
            drive.fixes[k].longitude = p.longitude
        }
        return drive
    }

    @Test func outliersOnTheParallelStreetAreCoastedOver() throws {
        let moved: Set<Int> = [10, 25, 26, 40, 55, 56, 57]
        let fixes = drive(moved: moved).fixes
        let matcher = OnlineMapMatcher(network: parallelStreets().network)
        let results = try fixes.map { try matcher.match($0) }
        #expect(matcher.outliers == moved.count)
        for (k, result) in results.enumerated() {
            #expect(result.state.position.map { Self.mainStreet.contains($0.link.link) } == true, "fix \(k)")
        }
        #expect(results.dropFirst().allSatisfy { !$0.discontinuity })
        // Coasted on at the fixes' speed, not held where the last good fix left the vehicle.
        let offsets = results.compactMap {
            $0.state.position.map { Double($0.link.link.rawValue - 1) * 200 + $0.offset }
        }
        for k in [25, 26, 55, 56, 57] { #expect(offsets[k] > offsets[k - 1] + 5, "fix \(k)") }
        #expect(results[56].state.position!.confidence < results[55].state.position!.confidence)

        // Without the gate the same fixes draw the match onto the parallel street.
        var ungated = MatcherConfiguration()
        ungated.outlierGateSigmas = 0
        let plain = OnlineMapMatcher(network: parallelStreets().network, configuration: ungated)
        let off = try fixes.map { try plain.match($0) }.filter {
            $0.state.position.map { !Self.mainStreet.contains($0.link.link) } ?? true
        }
        #expect(!off.isEmpty)
    }

    @Test func aVehicleThatIsReallyElsewhereIsFollowedAfterThreeFixes() throws {
        // From fix 30 on, every fix is on the parallel street: a receiver that was wrong before,
        // or a vehicle the fixes had lost. Three are coasted over, the fourth is believed.
        let fixes = drive(moved: Set(30...80)).fixes
        let matcher = OnlineMapMatcher(network: parallelStreets().network)
        let results = try fixes.map { try matcher.match($0) }
        #expect(matcher.outliers == 3)
        #expect(
            (30...32).allSatisfy { results[$0].state.position.map { Self.mainStreet.contains($0.link.link) } == true })
        let parallel = Set((31...35).map { LinkID(UInt64($0)) })
        #expect(results[33].discontinuity)
        #expect((33...80).allSatisfy { results[$0].state.position.map { parallel.contains($0.link.link) } == true })
    }

    @Test func aStoppedVehicleKeepsItsMatchThroughAnOutlier() throws {
        // Stopped at x = 300 from 10 s to 40 s; an outlier 60 m north at 20 s.
        var drive = SimulatedDrive(
            path: [(200, 0), (980, 0)], speed: { t in t < 10 || t > 40 ? 10 : 0 }, duration: 50, noise: 2, seed: 9)
        let plane = LocalProjection(origin: PlaneRoadGraph.origin)
        let (x, y) = plane.project(GeoPoint(latitude: drive.fixes[20].latitude, longitude: drive.fixes[20].longitude))
        let p = plane.unproject(x: x, y: y + 60)
        drive.fixes[20].latitude = p.latitude
        drive.fixes[20].longitude = p.longitude
        let matcher = OnlineMapMatcher(network: parallelStreets().network)
        let results = try drive.fixes.map { try matcher.match($0) }
        #expect(matcher.outliers == 1)
        let held = results[19].state.position
        #expect(results[20].state.position?.link == held?.link)
        #expect(abs((results[20].state.position?.offset ?? 0) - (held?.offset ?? 0)) < 0.5)
        #expect((11...40).allSatisfy { results[$0].state.position?.link == DirectedLink(LinkID(2), .forward) })
    }
}
