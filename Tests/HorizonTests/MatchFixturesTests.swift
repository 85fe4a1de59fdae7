import Foundation
import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

/// A drive along a polyline in the plane: one fix per `interval` seconds at the given speeds.
struct SimulatedDrive {
    /// Fixes with noise.
    var fixes: [GNSSFix] = []
    /// The true plane position of each fix.
    var truth: [(x: Double, y: Double)] = []

    /// Drives `path` (plane points) at `speed(t)` m/s, adding Gaussian noise of `noise` metres.
    init(
        path: [(Double, Double)], speed: (Double) -> Double, duration: Double, interval: Double = 1,
        noise: Double, seed: UInt64, startTime: Double = 0, accuracy: Double? = 5
    ) {
        let plane = LocalProjection(origin: PlaneRoadGraph.origin)
        var rng = SplitMix64(seed: seed)
        var travelled = 0.0
        var t = 0.0
        while t <= duration + 1e-9 {
            let (x, y, heading) = SimulatedDrive.locate(travelled, on: path)
            let v = speed(t)
            truth.append((x, y))
            let nx = x + noise * rng.gaussian(), ny = y + noise * rng.gaussian()
            let p = plane.unproject(x: nx, y: ny)
            fixes.append(
                GNSSFix(
                    time: startTime + t, latitude: p.latitude, longitude: p.longitude,
                    horizontalAccuracy: accuracy, speed: v, heading: v > 0.3 ? heading : nil))
            travelled += v * interval
            t += interval
        }
    }

    /// The plane point `distance` metres along `path` and the heading there (degrees from north).
    static func locate(_ distance: Double, on path: [(Double, Double)]) -> (Double, Double, Double) {
        var remaining = distance
        for k in 1..<path.count {
            let (ax, ay) = path[k - 1], (bx, by) = path[k]
            let length = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
            var heading = atan2(bx - ax, by - ay) * 180 / .pi
            if heading < 0 { heading += 360 }
            if remaining <= length || k == path.count - 1 {
                let t = length > 0 ? min(1, remaining / length) : 0
                return (ax + (bx - ax) * t, ay + (by - ay) * t, heading)
            }
            remaining -= length
        }
        return (path[0].0, path[0].1, 0)
    }
}

@Suite struct MatchFixturesTests {
    @Test func seededNoiseIsReproducibleAndStandardNormal() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        let samples = (0..<20_000).map { _ in a.gaussian() }
        #expect(samples.prefix(5) == (0..<5).map { _ in b.gaussian() }[...])
        let mean = samples.reduce(0, +) / Double(samples.count)
        let variance = samples.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(samples.count)
        #expect(abs(mean) < 0.03)
        #expect(abs(variance - 1) < 0.05)
    }

    @Test func simulatedDriveFollowsThePath() {
        let drive = SimulatedDrive(
            path: [(0, 0), (100, 0), (100, 100)], speed: { _ in 10 }, duration: 20,
            noise: 0, seed: 1)
        #expect(drive.fixes.count == 21)
        #expect(abs(drive.truth[5].x - 50) < 1e-9 && abs(drive.truth[15].y - 50) < 1e-9)
        #expect(drive.fixes[5].heading.map { abs($0 - 90) < 1e-6 } == true)
        #expect(drive.fixes[15].heading.map { abs($0) < 1e-6 } == true)
    }
}
