import Foundation
import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct DeadReckoningFilterTests {
    private let configuration = {
        var configuration = MatcherConfiguration()
        configuration.fusesDeadReckoning = true
        return configuration
    }()
    private let plane = LocalProjection(origin: PlaneRoadGraph.origin)
    /// A street east, a right-angle turn north, a street north: 8 m/s for 60 s.
    private let corner: [(Double, Double)] = [(0, 0), (250, 0), (250, 400)]

    /// Root-mean-square distance (metres) of `points` from the true positions.
    private func rms(_ points: [GeoPoint], _ truth: [(x: Double, y: Double)]) -> Double {
        let squares = zip(points, truth).map { point, true_ in
            let p = plane.project(point)
            return (p.x - true_.x) * (p.x - true_.x) + (p.y - true_.y) * (p.y - true_.y)
        }
        return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
    }

    private func fused(_ fixes: [GNSSFix], _ configuration: MatcherConfiguration) -> [GeoPoint] {
        var filter = DeadReckoningFilter()
        return fixes.map { filter.update($0, configuration).point }
    }

    @Test(
        "5 m of noise round a corner: the fused positions err by under half what the fixes do, with or without a reported accuracy"
    )
    func fusionThroughACorner() {
        for accuracy: Double? in [5, nil] {
            for seed: UInt64 in [1, 2, 3] {
                let drive = SimulatedDrive(
                    path: corner, speed: { _ in 8 }, duration: 60, noise: 5, seed: seed, accuracy: accuracy)
                let raw = rms(drive.fixes.map(\.point), drive.truth)
                let fusedError = rms(fused(drive.fixes, configuration), drive.truth)
                #expect(raw > 6 && fusedError < 0.5 * raw, "seed \(seed), accuracy \(String(describing: accuracy))")
                // The last 20 s, on the straight after the turn: about a metre and a half per axis.
                let tail = rms(
                    Array(fused(drive.fixes, configuration).suffix(20)), Array(drive.truth.suffix(20)))
                #expect(tail < 3, "seed \(seed)")
            }
        }
    }

    @Test(
        "a receiver with 0.3 m of scatter is followed: its scatter is learnt and the fused positions stay within a metre"
    )
    func aGoodReceiverIsFollowed() {
        let drive = SimulatedDrive(path: corner, speed: { _ in 8 }, duration: 60, noise: 0.3, seed: 4, accuracy: nil)
        let points = fused(drive.fixes, configuration)
        let errors = zip(points, drive.truth).dropFirst(12).map { point, true_ in
            let p = plane.project(point)
            return ((p.x - true_.x) * (p.x - true_.x) + (p.y - true_.y) * (p.y - true_.y)).squareRoot()
        }
        #expect(errors.max()! < 1.0)
    }

    @Test(
        "a fix without a speed, one after a time gap, and a second in a row beyond the gate restart the track at the fix"
    )
    func restarts() {
        let drive = SimulatedDrive(path: corner, speed: { _ in 8 }, duration: 30, noise: 5, seed: 5)
        var filter = DeadReckoningFilter()
        for fix in drive.fixes.prefix(20) { _ = filter.update(fix, configuration) }
        var noSpeed = drive.fixes[20]
        noSpeed.speed = nil
        #expect(filter.update(noSpeed, configuration).point == noSpeed.point)
        for fix in drive.fixes[21..<25] { _ = filter.update(fix, configuration) }
        var late = drive.fixes[25]
        late.time += configuration.maximumTimeGap + 1
        #expect(filter.update(late, configuration).point == late.point)
        // The fix after it, which the prediction explains, is fused, not taken as it is.
        var next = drive.fixes[26]
        next.time += configuration.maximumTimeGap + 1
        #expect(filter.update(next, configuration).point != next.point)
        // 80 m off the track for one fix: an outlier, coasted over (the prediction, near the track).
        func jumped(_ index: Int) -> GNSSFix {
            let p = plane.project(drive.fixes[index].point)
            var fix = drive.fixes[index]
            fix.time += configuration.maximumTimeGap + 1
            let far = plane.unproject(x: p.x - 80, y: p.y)
            (fix.latitude, fix.longitude) = (far.latitude, far.longitude)
            return fix
        }
        let outlier = filter.update(jumped(27), configuration).point
        #expect(outlier.distance(to: jumped(27).point) > 60)
        // Off for a second fix: a receiver jump; the track restarts there.
        #expect(filter.update(jumped(28), configuration).point == jumped(28).point)
        #expect(filter.fixesCoasted == 1 && filter.disagreements == 1)
    }

    @Test("fixes that run off sideways while the course says straight on are followed within three fixes")
    func aSidewaysRunIsFollowed() {
        // On the street east at 10 m/s, course 90°, accuracy 3 m reported; from 10 s the fixes
        // move 5 m north a second to 20 m (a road the map lacks), the course unchanged.
        var filter = DeadReckoningFilter()
        var north: [Double] = []
        for second in 0..<20 {
            let y = min(20, max(0, Double(second - 9) * 5))
            let point = plane.unproject(x: Double(second) * 10, y: y)
            let fix = GNSSFix(
                time: Double(second), latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: 3,
                speed: 10, heading: 90)
            north.append(plane.project(filter.update(fix, configuration).point).y)
        }
        #expect(north[0..<10].allSatisfy { abs($0) < 0.01 })
        // 20 m reached at 13 s; the fused position within 3 m of it from 16 s on.
        #expect(north[16...].allSatisfy { abs($0 - 20) < 3 }, "\(north)")
    }

    @Test("a standing vehicle with no course averages its fixes")
    func standingStillAverages() {
        let drive = SimulatedDrive(path: corner, speed: { _ in 0 }, duration: 40, noise: 5, seed: 6)
        let points = fused(drive.fixes, configuration)
        #expect(rms(Array(points.suffix(20)), Array(drive.truth.suffix(20))) < 2.5)
    }

    /// A block 200 m square: ways of 40 m (links 1…20 anticlockwise from the south-west corner),
    /// the junction side being all that tells neighbours apart, and a side street out of the block
    /// at every node. The car drives round it anticlockwise, turning each corner on an arc of 12 m.
    private func block() -> (PlaneRoadGraph, corners: [(Double, Double)], path: [(Double, Double)]) {
        let corners: [(Double, Double)] = [(0, 0), (200, 0), (200, 200), (0, 200), (0, 0)]
        var g = PlaneRoadGraph()
        for k in 0..<20 {
            let a = SimulatedDrive.locate(Double(k) * 40, on: corners)
            let b = k == 19 ? (0.0, 0.0, 0.0) : SimulatedDrive.locate(Double(k + 1) * 40, on: corners)
            g.add(UInt64(k + 1), Int64(k), Int64((k + 1) % 20), [(a.0, a.1), (b.0, b.1)])
            let h = a.2 * .pi / 180
            g.add(UInt64(100 + k), Int64(k), Int64(1000 + k), [(a.0, a.1), (a.0 + 60 * cos(h), a.1 - 60 * sin(h))])
        }
        // Round each corner of the loop on an arc of radius 12 m.
        var path: [(Double, Double)] = [(20, 0)]
        let r = 12.0
        for (cx, cy, start) in [(188.0, 12.0, -90.0), (188, 188, 0), (12, 188, 90), (12, 12, 180)] {
            for step in 0...9 {
                let angle = (start + Double(step) * 10) * .pi / 180
                path.append((cx + r * cos(angle), cy + r * sin(angle)))
            }
        }
        path.append((0, 20))
        return (g, corners, path)
    }

    /// The link (1…20) nearest a true position: the way a label names.
    private func nearestLink(_ x: Double, _ y: Double, corners: [(Double, Double)]) -> UInt64 {
        var best = (distance: Double.infinity, link: UInt64(0))
        for k in 0..<20 {
            let a = SimulatedDrive.locate(Double(k) * 40, on: corners)
            let b = SimulatedDrive.locate(Double(k + 1) * 40 - 1e-6, on: corners)
            let (dx, dy) = (b.0 - a.0, b.1 - a.1)
            let t = max(0, min(1, ((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy)))
            let d = ((x - a.0 - t * dx) * (x - a.0 - t * dx) + (y - a.1 - t * dy) * (y - a.1 - t * dy)).squareRoot()
            if d < best.distance { best = (d, UInt64(k + 1)) }
        }
        return best.link
    }

    @Test(
        "round a block of 40 m ways with 5 m of noise: fusing dead reckoning puts a quarter fewer fixes on the wrong way"
    )
    func fusionDecidesJunctionSides() throws {
        let (g, corners, path) = block()
        var right = [true: 0, false: 0], total = 0
        for seed: UInt64 in 1...8 {
            let drive = SimulatedDrive(path: path, speed: { _ in 8 }, duration: 90, noise: 5, seed: seed, accuracy: nil)
            total += drive.fixes.count
            for fuses in [true, false] {
                var configuration = configuration
                configuration.fusesDeadReckoning = fuses
                let matcher = OnlineMapMatcher(network: g.network, configuration: configuration)
                for (fix, true_) in zip(drive.fixes, drive.truth) {
                    let result = try matcher.match(fix)
                    let trueLink = nearestLink(true_.x, true_.y, corners: corners)
                    if result.state.position?.link.link.rawValue == trueLink { right[fuses]! += 1 }
                }
            }
        }
        let wrong = right.mapValues { total - $0 }
        #expect(Double(wrong[true]!) <= 0.75 * Double(wrong[false]!), "\(right) of \(total)")
    }
}
