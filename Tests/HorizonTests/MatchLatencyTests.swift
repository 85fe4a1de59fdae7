import Foundation
import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

/// Per-fix cost and accuracy over a long noisy drive on a city grid. Prints the latency
/// percentiles (not asserted: timing depends on the machine and build); asserts accuracy.
@Suite struct MatchLatencyTests {
    /// A 30 × 30 grid of two-way streets, 100 m blocks: 1 740 links.
    private func grid() -> PlaneRoadGraph {
        var g = PlaneRoadGraph()
        var id: UInt64 = 1
        func node(_ i: Int, _ j: Int) -> Int64 { Int64(i * 100 + j) }
        for i in 0..<30 {
            for j in 0..<30 {
                let x = Double(i) * 100, y = Double(j) * 100
                if i < 29 { g.add(id, node(i, j), node(i + 1, j), [(x, y), (x + 100, y)]); id += 1 }
                if j < 29 { g.add(id, node(i, j), node(i, j + 1), [(x, y), (x, y + 100)]); id += 1 }
            }
        }
        return g
    }

    @Test func tenThousandFixesOnAGrid() throws {
        let g = grid()
        let network = g.network
        // Back and forth across ten rows (many turns), repeated, with a 20 s stop every 300 s.
        var sweep: [(Double, Double)] = []
        for row in 0..<10 {
            let y = 500 + Double(row) * 100
            sweep += row % 2 == 0 ? [(500, y), (2500, y)] : [(2500, y), (500, y)]
        }
        var path = sweep
        for lap in 1..<6 { path += lap % 2 == 1 ? sweep.reversed() : sweep }
        let speed: (Double) -> Double = { t in t.truncatingRemainder(dividingBy: 300) < 280 ? 12 : 0 }
        let drive = SimulatedDrive(path: path, speed: speed, duration: 9999, noise: 5, seed: 2024)
        #expect(drive.fixes.count == 10_000)

        let hmm = try measure(OnlineMapMatcher(network: network), "OnlineMapMatcher", drive, g, network)
        let baseline = try measure(NearestRoadMatcher(network: network), "NearestRoadMatcher", drive, g, network)
        #expect(hmm.share >= 0.95)
        #expect(hmm.share > baseline.share)
        #expect(hmm.breaks == 1 && hmm.offRoad == 0)
    }

    /// Runs `matcher` over the drive, prints latency percentiles and accuracy, returns the accuracy.
    private func measure(
        _ matcher: any MapMatcher, _ name: String, _ drive: SimulatedDrive, _ g: PlaneRoadGraph,
        _ network: InMemoryRoadNetwork
    ) throws -> (share: Double, breaks: Int, offRoad: Int) {
        let clock = ContinuousClock()
        var nanoseconds: [Int64] = []
        nanoseconds.reserveCapacity(drive.fixes.count)
        var results: [MatchResult] = []
        results.reserveCapacity(drive.fixes.count)
        for fix in drive.fixes {
            var result: MatchResult?
            let elapsed = try clock.measure { result = try matcher.match(fix) }
            results.append(result!)
            nanoseconds.append(
                elapsed.components.attoseconds / 1_000_000_000 + elapsed.components.seconds * 1_000_000_000)
        }
        nanoseconds.sort()
        func percentile(_ p: Double) -> Double { Double(nanoseconds[Int(p * Double(nanoseconds.count - 1))]) / 1000 }
        print(
            "\(name) per fix over \(nanoseconds.count) fixes, 1740-link grid: "
                + "p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs, max \(percentile(1)) µs")

        // Correct road: the matched link passes within 2 m of the true position, in the driving direction.
        var correct = 0
        for (k, result) in results.enumerated() {
            guard let position = result.state.position, let link = try? network.link(position.link.link),
                let projection = link.geometry.project(g.point(drive.truth[k].x, drive.truth[k].y))
            else { continue }
            let heading =
                k + 1 < drive.truth.count
                ? atan2(drive.truth[k + 1].x - drive.truth[k].x, drive.truth[k + 1].y - drive.truth[k].y) : 0
            let linkBearing =
                (position.link.direction == .forward ? projection.bearing : projection.bearing + 180) * .pi / 180
            let stopped = drive.fixes[k].speed == 0
            if projection.distance < 2, stopped || cos(linkBearing - heading) > 0.7 { correct += 1 }
        }
        let share = Double(correct) / Double(results.count)
        print("\(name) correct road on the grid with 5 m noise: \(correct) of \(results.count) (\(share))")
        let offRoad = results.filter { $0.state.name == "off_road" }.count
        let breaks = results.filter(\.discontinuity).count
        print("\(name) on the grid: \(offRoad) off-road results, \(breaks) discontinuities")
        return (share, breaks, offRoad)
    }
}
