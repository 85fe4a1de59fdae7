import Foundation
import GNSS
@testable import Horizon
import RoadMap
import Testing
import TestSupport

/// Dead reckoning as tight as the receiver says its velocity is (`GNSSFix.speedAccuracy` and
/// `headingAccuracy`, gpsd's `eps` and `epd`): a receiver whose Doppler speed is good is trusted
/// between fixes, one whose speed is poor is not, and fixes that say nothing keep the configured
/// drifts.
@Suite("dead reckoning by the accuracy the receiver reports for its velocity")
struct ReportedVelocityAccuracyTests {
    static let origin = GeoPoint(latitude: 60.17, longitude: 24.94)

    /// The speed of the stop-and-go car (``StopAndGoTraffic``) at `time` seconds.
    static func speed(at time: Double) -> Double { StopAndGoTraffic.speed(at: time) }

    /// The fused positions' errors along the road (metres), ten minutes east on a straight road,
    /// one fix a second with 5 m of noise per axis; each fix's speed off by `speedNoise` (1 σ) and
    /// reporting `reported` (speed accuracy m/s, course accuracy degrees) or nothing.
    static func drive(speedNoise: Double, reported: (speed: Double, course: Double)?) -> [Double] {
        var filter = DeadReckoningFilter()
        let configuration = MatcherConfiguration()
        let plane = LocalProjection(origin: origin)
        var random = SplitMix64(seed: 5)
        var east = 0.0
        var errors: [Double] = []
        for second in 0...600 {
            let time = Double(second)
            if second > 0 {
                for k in 0..<100 { east += speed(at: time - 1 + (Double(k) + 0.5) / 100) / 100 }
            }
            let measured = plane.unproject(x: east + 5 * random.gaussian(), y: 5 * random.gaussian())
            let speedError = speedNoise * random.gaussian()
            let fix = GNSSFix(
                time: time, latitude: measured.latitude, longitude: measured.longitude,
                speed: max(0, speed(at: time) + speedError), heading: 90, speedAccuracy: reported?.speed,
                headingAccuracy: reported?.course)
            errors.append(plane.project(filter.update(fix, configuration).point).x - east)
        }
        return errors
    }

    static func rms(_ values: ArraySlice<Double>) -> Double {
        (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }

    @Test("exact speeds reported as good: the track errs far less along the road than by the configured drifts")
    func goodVelocityIsTrusted() {
        let reported = Self.rms(Self.drive(speedNoise: 0, reported: (0.05, 0.5)).suffix(500))
        let silent = Self.rms(Self.drive(speedNoise: 0, reported: nil).suffix(500))
        #expect(reported < 0.85 * silent, "rms along the road \(reported) m reported, \(silent) m not")
    }

    @Test("poor speeds reported as poor are trusted less than the same speeds claimed good")
    func poorVelocityIsNotTrusted() {
        let honest = Self.rms(Self.drive(speedNoise: 1, reported: (1, 0.5)).suffix(500))
        let claimed = Self.rms(Self.drive(speedNoise: 1, reported: (0.05, 0.5)).suffix(500))
        #expect(honest < 0.9 * claimed, "rms along the road \(honest) m honest, \(claimed) m claiming 0.05 m/s")
    }

    @Test("a pessimistic report (gpsd's error model: 18 m/s) changes nothing: never looser than the configured drifts")
    func pessimisticReportKeepsTheConfiguredDrifts() {
        #expect(Self.drive(speedNoise: 0, reported: (18, 10)) == Self.drive(speedNoise: 0, reported: nil))
    }

    @Test("the filter counts the steps it took by the reported accuracy and by the configured drifts")
    func stepsAreCounted() {
        var filter = DeadReckoningFilter()
        let plane = LocalProjection(origin: Self.origin)
        for (second, reported) in [(0.05, 0.5), (0.05, 0.5), (0.05, 0.5), nil, nil, (18, 10), (18, 10)].enumerated() {
            let point = plane.unproject(x: Double(second) * 10, y: 0)
            _ = filter.update(
                GNSSFix(
                    time: Double(second), latitude: point.latitude, longitude: point.longitude, speed: 10,
                    heading: 90, speedAccuracy: reported?.0, headingAccuracy: reported?.1),
                MatcherConfiguration())
        }
        // Steps into fixes 1 and 2 by the accuracy; 3 and 4 (one end without), 5 (likewise) and 6
        // (18 m/s: looser than the drifts) by the drifts.
        #expect(filter.steps.byReportedVelocity == 2 && filter.steps.byConfiguredDrift == 4)
    }

    @Test("a fix with a negative or infinite velocity accuracy is refused by name")
    func badAccuracyIsRefused() throws {
        let matcher = OnlineMapMatcher(network: InMemoryRoadNetwork(links: []))
        for (fix, field) in [
            (
                GNSSFix(time: 1, latitude: 60, longitude: 25, speed: 3, speedAccuracy: -1),
                MatchingError.Field.speedAccuracy
            ),
            (GNSSFix(time: 1, latitude: 60, longitude: 25, heading: 9, headingAccuracy: .infinity), .headingAccuracy),
        ] {
            #expect(throws: MatchingError(field: field, value: fix.speedAccuracy ?? fix.headingAccuracy!, time: 1)) {
                try matcher.match(fix)
            }
        }
    }
}
