import Foundation
import GNSS
@testable import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport

/// Dead reckoning fused with the fixes on a real drive of the sample map, read from NMEA as a
/// receiver sends it: its GGA gives HDOP 1.0, so each fix claims 5 m of accuracy
/// (``NMEAFixAssembler/userEquivalentRangeError``), while its positions are the clean trace's. The
/// filter learns the scatter the fixes really have and follows them; believing the 5 m it lagged a
/// way behind at junctions (95.1 % way correct before it learnt, 97.9 % unfused).
@Suite("dead reckoning on the sample drive read from NMEA")
struct DeadReckoningSampleDriveTests {
    static func wayCorrect(fusing: Bool) throws -> Double {
        let map = try MapFile(path: try ImportedMap.file(SampleDriveList.helsinki))
        let fixes = try TraceFile(path: Repository.url("Data/drives/mannerheimintie.nmea").path).fixes
        let truth = try String(contentsOf: Repository.url("Data/drives/mannerheimintie.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",").last.flatMap { Int64($0) } }
        try #require(fixes.count == truth.count && fixes.allSatisfy { $0.horizontalAccuracy == 5 })
        var configuration = MatcherConfiguration()
        configuration.fusesDeadReckoning = fusing
        let matcher = OnlineMapMatcher(network: map, configuration: configuration)
        var correct = 0
        for (fix, way) in zip(fixes, truth) {
            guard let position = try matcher.match(fix).state.position else { continue }
            if try map.link(position.link.link).wayID == way { correct += 1 }
        }
        return Double(correct) / Double(fixes.count)
    }

    @Test("fused, the clean NMEA drive is matched at least as well as unfused (measured 98.4 against 97.9 %)")
    func learntScatterFollowsACleanReceiver() throws {
        let fused = try Self.wayCorrect(fusing: true), unfused = try Self.wayCorrect(fusing: false)
        #expect(fused >= unfused && fused >= 0.98, "fused \(fused), unfused \(unfused)")
    }
}
