import Foundation
import GNSS
import RoadMap
import Testing
@testable import Horizon
import TestSupport

@Suite struct AlongTrackTests {
    private func candidate(_ id: UInt64, offset: Double, measured: Double? = nil, length: Double = 100)
        -> MatchCandidate
    {
        MatchCandidate(
            link: DirectedLink(LinkID(id), .forward), offset: offset, measuredOffset: measured ?? offset,
            length: length, point: PlaneRoadGraph.origin, distance: 0, bearing: 90, emission: 0)
    }

    @Test func fusionWeighsPredictionAndProjectionByTheirVariances() {
        // Source estimate 40 m (variance 4) on link 1, 10 m driven, projection at 56 m (σ 5 m).
        let source = candidate(1, offset: 38)
        let estimate = AlongTrackEstimate(offset: 40, variance: 4)
        let target = candidate(1, offset: 56)
        let next = estimate.advanced(
            from: source, to: target, routeDistance: 18, expectedDistance: 10,
            processVariance: 1, sigma: 5, gate: 3)
        // Prediction 50 (variance 5), measurement 56 (variance 25): gain 5/30.
        #expect(abs(next.offset - (50 + 6.0 * 5 / 30)) < 1e-9)
        #expect(abs(next.variance - 5 * 25 / 30.0) < 1e-9)
    }

    @Test func predictionAcrossAJunctionCountsFromTheEstimateNotTheProjection() {
        // Source on link 1 (100 m) projected at 90, estimated at 94; target on link 2 projected at 3 m:
        // route 10 + 3 = 13 m from the projection. Driven 8 m → predicted 94 + 8 − 100 = 2 m into link 2.
        let source = candidate(1, offset: 90)
        let estimate = AlongTrackEstimate(offset: 94, variance: 2)
        let target = candidate(2, offset: 3)
        let next = estimate.advanced(
            from: source, to: target, routeDistance: 13, expectedDistance: 8,
            processVariance: 1e-12, sigma: 1e6, gate: 3)
        #expect(abs(next.offset - 2) < 1e-6)
    }

    @Test func aFarProjectionOrUnknownSpeedRestartsFromTheMeasurement() {
        let source = candidate(1, offset: 38)
        let estimate = AlongTrackEstimate(offset: 40, variance: 1)
        let far = candidate(1, offset: 90, measured: 90)
        let gated = estimate.advanced(
            from: source, to: far, routeDistance: 52, expectedDistance: 10,
            processVariance: 1, sigma: 3, gate: 3)
        #expect(gated.offset == 90 && gated.variance == 9)
        let blind = estimate.advanced(
            from: source, to: candidate(1, offset: 45, measured: 45), routeDistance: 7,
            expectedDistance: 10, processVariance: .infinity, sigma: 3, gate: 3)
        #expect(blind.offset == 45 && blind.variance == 9)
    }

    @Test func measuredOffsetExtendsPastBothEndsOfTheLink() {
        let g = PlaneRoadGraph()
        let geometry = [g.point(0, 0), g.point(50, 0), g.point(100, 0)]
        let past = CandidateSearch.unclampedOffset(of: g.point(104, 1), on: geometry, projected: 100, length: 100)
        let before = CandidateSearch.unclampedOffset(of: g.point(-3, 2), on: geometry, projected: 0, length: 100)
        let inside = CandidateSearch.unclampedOffset(of: g.point(30, 2), on: geometry, projected: 30, length: 100)
        #expect(abs(past - 104) < 0.05)
        #expect(abs(before + 3) < 0.05)
        #expect(inside == 30)
    }

    /// A straight street along y = 0 split into 8 m links (ways split at every crossing, as in
    /// central Helsinki), driven at 8 m/s with 5 m GNSS noise.
    private func shortLinkDrive(seed: UInt64, configuration: MatcherConfiguration) throws -> Double {
        var g = PlaneRoadGraph()
        for k in 0..<100 {
            g.add(UInt64(k + 1), Int64(k), Int64(k + 1), [(Double(k) * 8, 0), (Double(k + 1) * 8, 0)])
        }
        let drive = SimulatedDrive(path: [(0, 0), (800, 0)], speed: { _ in 7 }, duration: 100, noise: 5, seed: seed)
        let matcher = OnlineMapMatcher(network: g.network, configuration: configuration)
        var correct = 0
        for (fix, truth) in zip(drive.fixes, drive.truth) {
            let expected = LinkID(UInt64(min(99, Int(truth.x / 8)) + 1))
            if try matcher.match(fix).state.position?.link.link == expected { correct += 1 }
        }
        return Double(correct) / Double(drive.fixes.count)
    }

    @Test func deadReckoningFindsTheRightShortLinkUnderNoise() throws {
        // The along-track filter alone: the fixes as received (no DeadReckoningFilter).
        var alongTrack = MatcherConfiguration()
        alongTrack.fusesDeadReckoning = false
        var projectionOnly = alongTrack
        projectionOnly.alongTrackDrift = .infinity
        var fused = 0.0, unfused = 0.0, product = 0.0
        for seed: UInt64 in [1, 2, 3, 4] {
            fused += try shortLinkDrive(seed: seed, configuration: alongTrack)
            unfused += try shortLinkDrive(seed: seed, configuration: projectionOnly)
            product += try shortLinkDrive(seed: seed, configuration: MatcherConfiguration())
        }
        fused /= 4
        unfused /= 4
        product /= 4
        // With the fixes fused with dead reckoning in the plane as well (the default), better still.
        #expect(product >= fused, "fused in the plane \(product), along the link only \(fused)")
        // With σ = 5 m along the road, the projection alone lands on the right 8 m link about half
        // the time; dead reckoning from the exact speeds keeps the estimate within a few metres.
        #expect(fused >= 0.7, "fused \(fused)")
        #expect(fused >= unfused + 0.2, "fused \(fused), projection only \(unfused)")
    }

    /// An L-shaped street of 8 m links (x to 400 m, then y to 400 m) driven at 7 m/s with 5 m noise;
    /// the car cuts the corner as a car does (5.9 m shorter than the polyline through the node).
    /// Returns the share of the 20 fixes after the corner that land on the right link.
    private func cornerDrive(seed: UInt64, configuration: MatcherConfiguration) throws -> Double {
        var g = PlaneRoadGraph()
        for k in 0..<50 {
            g.add(UInt64(k + 1), Int64(k), Int64(k + 1), [(Double(k) * 8, 0), (Double(k + 1) * 8, 0)])
            g.add(UInt64(k + 51), Int64(k + 50), Int64(k + 51), [(400, Double(k) * 8), (400, Double(k + 1) * 8)])
        }
        let path: [(Double, Double)] = [(0, 0), (390, 0), (400, 10), (400, 400)]
        let drive = SimulatedDrive(path: path, speed: { _ in 7 }, duration: 100, noise: 5, seed: seed)
        let matcher = OnlineMapMatcher(network: g.network, configuration: configuration)
        var correct = 0, scored = 0
        for (fix, truth) in zip(drive.fixes, drive.truth) {
            let position = try matcher.match(fix).state.position
            guard truth.y > 10, scored < 20 else { continue }
            scored += 1
            if position?.link.link == LinkID(UInt64(min(49, Int(truth.y / 8)) + 51)) { correct += 1 }
        }
        return Double(correct) / Double(scored)
    }

    @Test func turnDriftLetsTheEstimateCatchUpAfterACutCorner() throws {
        var withoutTurnTerm = MatcherConfiguration()
        withoutTurnTerm.alongTrackTurnDrift = 0
        var loose = 0.0, tight = 0.0
        let seeds: [UInt64] = Array(1...12)
        for seed in seeds {
            loose += try cornerDrive(seed: seed, configuration: MatcherConfiguration())
            tight += try cornerDrive(seed: seed, configuration: withoutTurnTerm)
        }
        loose /= Double(seeds.count)
        tight /= Double(seeds.count)
        // Without the turn term the estimate trusts dead reckoning through the corner, stays
        // metres behind the car and takes many fixes to catch up on links of 8 m.
        #expect(loose >= tight + 0.1, "with turn drift \(loose), without \(tight)")
        #expect(loose >= 0.6, "with turn drift \(loose)")
    }
}
