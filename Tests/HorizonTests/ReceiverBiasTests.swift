import Foundation
import GNSS
@testable import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport

/// Gaussian numbers from a fixed seed (SplitMix64, Box–Muller), so each test sees the same noise.
private struct SeededNoise {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    private mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }

    mutating func gaussian(_ sigma: Double) -> Double {
        let u1 = 1 - uniform(), u2 = uniform()
        return sigma * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

@Suite("the receiver's bias, estimated from where matched fixes lie beside their roads")
struct ReceiverBiasTests {
    static let configuration = MatcherConfiguration()

    /// One fix a second on roads of the given bearings in turn, each for `seconds`: the fix lies
    /// `bias` (east, north) off plus `lane` right of the road plus noise.
    static func estimate(
        bias: (east: Double, north: Double), lane: Double, noise: Double, bearings: [Double], seconds: Int
    ) -> ReceiverBias {
        var estimate = ReceiverBias()
        var random = SeededNoise(seed: 7)
        var time = 0.0
        for bearing in bearings {
            let angle = bearing * .pi / 180
            for _ in 0..<seconds {
                estimate.predict(to: time, configuration)
                let right = cos(angle) * bias.east - sin(angle) * bias.north + lane + random.gaussian(noise)
                estimate.update(right: right, bearing: bearing, configuration)
                time += 1
            }
        }
        return estimate
    }

    @Test("roads in four directions separate the receiver's offset from the lane the car keeps")
    func offsetAndLaneSeparateOverTurns() {
        // Twice round a block, 30 s a side: an offset of 3.6 m that stays (east 3, north -2), the car
        // 1.6 m right of each road's line. The estimate, a process that forgets over minutes
        // measured by fixes of 4 m, holds most of the offset, not all.
        let estimate = Self.estimate(
            bias: (3, -2), lane: 1.6, noise: 1, bearings: [0, 90, 180, 270, 0, 90, 180, 270], seconds: 30)
        let error = hypot(estimate.east - 3, estimate.north + 2)
        #expect(error < 0.5 * hypot(3, 2), "estimate \(estimate.east), \(estimate.north)")
        // Taken off a fix: the part beyond the estimate's own uncertainty, towards the offset.
        let point = GeoPoint(latitude: 60.17, longitude: 24.94)
        let moved = LocalProjection(origin: point).project(estimate.corrected(point))
        let along = -(moved.x * 3 + moved.y * -2) / hypot(3, 2)
        #expect(along > 0.5 && along < hypot(3, 2), "moved \(moved)")
    }

    @Test("a receiver without an offset: its fixes are left where they are, the lane learnt alone")
    func noOffsetMovesNothing() {
        let estimate = Self.estimate(
            bias: (0, 0), lane: 1.6, noise: 3, bearings: [0, 90, 180, 270, 45, 225], seconds: 40)
        let point = GeoPoint(latitude: 60.17, longitude: 24.94)
        #expect(point.distance(to: estimate.corrected(point)) < 0.5)
    }

    /// Way correct of a clean sample drive with its fixes moved `offset` metres (east, north) and
    /// 2 m of independent noise, matched with and without the estimate.
    static func wayCorrect(drive: String, offset: (east: Double, north: Double), estimating: Bool) throws -> Double {
        let map = try MapFile(path: try ImportedMap.file(SampleDriveList.helsinki))
        let clean = try TraceFile(path: Repository.url("Data/drives/\(drive).csv").path).fixes
        let truth = try String(contentsOf: Repository.url("Data/drives/\(drive).csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",").last.flatMap { Int64($0) } }
        try #require(clean.count == truth.count)
        var configuration = MatcherConfiguration()
        configuration.estimatesReceiverBias = estimating
        let matcher = OnlineMapMatcher(network: map, configuration: configuration)
        var random = SeededNoise(seed: 11)
        var correct = 0
        for (fix, way) in zip(clean, truth) {
            var moved = fix
            let point = LocalProjection(origin: fix.point).unproject(
                x: offset.east + random.gaussian(2), y: offset.north + random.gaussian(2))
            moved.latitude = point.latitude
            moved.longitude = point.longitude
            guard let position = try matcher.match(moved).state.position else { continue }
            if try map.link(position.link.link).wayID == way { correct += 1 }
        }
        return Double(correct) / Double(clean.count)
    }

    @Test("a sample drive with its fixes 4 m off: matched better with the estimate")
    func offsetDriveMatchesBetter() throws {
        let with = try Self.wayCorrect(drive: "kamppi", offset: (0, 4), estimating: true)
        let without = try Self.wayCorrect(drive: "kamppi", offset: (0, 4), estimating: false)
        #expect(with >= without + 0.01, "with \(with), without \(without)")
    }
}
