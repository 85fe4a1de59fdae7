import Foundation
import GNSS
@testable import Horizon
import RoadMap
import Testing
import TestSupport

@Suite("how late the fix speeds are, learnt from the dead reckoning")
struct SpeedLatencyTests {
    static let origin = GeoPoint(latitude: 60.17, longitude: 24.94)

    /// The speed of the stop-and-go car (``StopAndGoTraffic``) at `time` seconds.
    static func speed(at time: Double) -> Double { StopAndGoTraffic.speed(at: time) }

    /// The fused positions' errors along the road (metres) after `seconds` of that traffic on a
    /// straight road east, one fix a second with `noise` metres (1 σ per axis, fixed seed), the
    /// fix speeds `latency` seconds late, and the filter that fused them.
    static func drive(
        latency: Double, estimating: Bool, known: Double? = nil, noise: Double = 3, seconds: Int = 600
    ) -> (errors: [Double], filter: DeadReckoningFilter) {
        var filter = DeadReckoningFilter()
        if estimating { filter.speedLatency = SpeedLatency(sigma: 0.5) }
        if let known { filter.speedLatency = SpeedLatency(known: known) }
        let configuration = MatcherConfiguration()
        let plane = LocalProjection(origin: origin)
        var random = SplitMix64(seed: 11)
        var east = 0.0
        var errors: [Double] = []
        for second in 0...seconds {
            let time = Double(second)
            if second > 0 {
                // The car's own path, integrated finely.
                for k in 0..<100 { east += speed(at: time - 1 + (Double(k) + 0.5) / 100) / 100 }
            }
            let measured = plane.unproject(x: east + noise * random.gaussian(), y: noise * random.gaussian())
            var fix = GNSSFix(
                time: time, latitude: measured.latitude, longitude: measured.longitude,
                speed: speed(at: max(0, time - latency)), heading: 90)
            fix.speed = filter.speedLatency?.speedAtFixTime(fix, maximumGap: configuration.maximumTimeGap) ?? fix.speed
            let fused = filter.update(fix, configuration)
            errors.append(plane.project(fused.point).x - east)
        }
        return (errors, filter)
    }

    static func rms(_ values: ArraySlice<Double>) -> Double {
        (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }

    @Test("speeds half a second late: the estimate finds the latency, and the track stops lagging")
    func lateSpeedsAreFound() throws {
        let estimated = Self.drive(latency: 0.5, estimating: true)
        let latency = try #require(estimated.filter.speedLatency)
        #expect(abs(latency.estimate - 0.5) < 0.15, "estimate \(latency.estimate)")
        #expect(latency.appliedLatency > 0.3, "applied \(latency.appliedLatency)")
        // Over the last five minutes the fused positions err less along the road than without the
        // estimate, where dead reckoning falls behind at every start and runs ahead at every stop.
        let plain = Self.drive(latency: 0.5, estimating: false)
        let with = Self.rms(estimated.errors.suffix(300)), without = Self.rms(plain.errors.suffix(300))
        #expect(with < 0.85 * without, "rms along the road \(with) m with the estimate, \(without) m without")
    }

    @Test("speeds on time: nothing is taken off them, and the track is as good as without the estimate")
    func onTimeSpeedsStayAsTheyAre() throws {
        let estimated = Self.drive(latency: 0, estimating: true)
        let latency = try #require(estimated.filter.speedLatency)
        #expect(abs(latency.estimate) < 0.15, "estimate \(latency.estimate)")
        #expect(abs(latency.appliedLatency) < 0.05, "applied \(latency.appliedLatency)")
        let plain = Self.drive(latency: 0, estimating: false)
        let with = Self.rms(estimated.errors.suffix(300)), without = Self.rms(plain.errors.suffix(300))
        #expect(with < 1.05 * without, "rms along the road \(with) m with the estimate, \(without) m without")
    }

    @Test("a latency that is known is applied from the first fix and never learnt")
    func knownLatencyIsAppliedAsItIs() throws {
        let known = Self.drive(latency: 0.5, estimating: false, known: 0.5)
        let latency = try #require(known.filter.speedLatency)
        #expect(latency.estimate == 0.5 && latency.appliedLatency == 0.5, "the fixes taught it nothing")
        // From the first start on, the track does as well as with the estimate at the end of its ten
        // minutes, and better than without anything.
        let plain = Self.drive(latency: 0.5, estimating: false)
        let first = Self.rms(known.errors.prefix(120)), without = Self.rms(plain.errors.prefix(120))
        #expect(first < 0.8 * without, "first two minutes: rms \(first) m known, \(without) m without")
        #expect(SpeedLatency(known: 5).appliedLatency == SpeedLatency.range.upperBound)
    }

    @Test("a speed taken at the fix's time: moved on at the rate the speed changed, never below 0")
    func speedAtFixTime() {
        var latency = SpeedLatency(sigma: 0.5)
        // A learnt estimate of 0.6 s, good to a few hundredths: a little less applied.
        for _ in 0..<100 {
            // Speeds 0.6 s late, less what is already taken off them: a step of 2 m/s errs by that.
            let missed = (0.6 - latency.appliedLatency) * 2
            latency.stepped(course: (1, 0), speedChange: 2)
            latency.learn(innovation: (missed, 0), innovationVariance: 1, gain: 1)
        }
        #expect(abs(latency.estimate - 0.6) < 0.02, "estimate \(latency.estimate)")
        let applied = latency.appliedLatency
        #expect(applied > 0.5 && applied < latency.estimate, "applied \(applied)")
        func fix(_ time: Double, _ speed: Double?) -> GNSSFix {
            GNSSFix(
                time: time, latitude: Self.origin.latitude, longitude: Self.origin.longitude, speed: speed, heading: 90)
        }
        #expect(latency.speedAtFixTime(fix(0, 4), maximumGap: 5) == 4, "no speed before: as reported")
        #expect(abs(latency.speedAtFixTime(fix(1, 6), maximumGap: 5)! - (6 + applied * 2)) < 1e-9)
        #expect(latency.speedAtFixTime(fix(2, 0.5), maximumGap: 5) == 0, "braking hard: not below 0")
        #expect(latency.speedAtFixTime(fix(9, 3), maximumGap: 5) == 3, "after a gap: as reported")
        #expect(latency.speedAtFixTime(fix(10, nil), maximumGap: 5) == nil)
    }
}
