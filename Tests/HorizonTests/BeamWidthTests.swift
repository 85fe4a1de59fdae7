import Foundation
import GNSS
import Horizon
import RoadMapStore
import Testing
import TestSupport

/// The matcher's beam (``MatcherConfiguration/beamWidth``) only drops states too unlikely to change
/// a decision: on every sample drive, clean and with 5 m noise, the default beam places each fix
/// on the same link at the same offset as the beam of e^−40 it replaced (issue 12). A narrower
/// beam than the default does change fixes (at 1 on the noisy Helsinki drives; at 2 until stop 52's
/// U-turn inside a link changed the scores), so this test is what
/// keeps the default honest when the matcher's scores change.
@Suite("beam pruning on the sample drives")
struct BeamWidthTests {
    /// The fixes of `drive` where a matcher with `beamWidth` places the vehicle elsewhere than one
    /// with the beam of e^−40 (another state, link or offset), as "t=…" descriptions.
    static func differences(_ drive: String, noisy: Bool, beamWidth: Double) throws -> [String] {
        let map = try MapFile(path: try ImportedMap.file(SampleDriveList.extract(of: drive)))
        let path = Repository.url("Data/drives/\(drive)\(noisy ? "-noisy" : "").csv").path
        var narrow = MatcherConfiguration()
        narrow.beamWidth = beamWidth
        var wide = MatcherConfiguration()
        wide.beamWidth = 40
        let tested = OnlineMapMatcher(network: map, configuration: narrow)
        let reference = OnlineMapMatcher(network: map, configuration: wide)
        var found: [String] = []
        for fix in try TraceFile(path: path).fixes {
            let a = try tested.match(fix).state, b = try reference.match(fix).state
            if a.name != b.name || a.position?.link != b.position?.link || a.position?.offset != b.position?.offset {
                found.append("t=\(fix.time): \(a) against \(b)")
            }
        }
        return found
    }

    @Test("the default beam places every fix as a beam of e^-40 does", arguments: SampleDriveList.names)
    func defaultBeamChangesNoFix(drive: String) throws {
        let beam = MatcherConfiguration().beamWidth
        #expect(beam < 40)
        for noisy in [false, true] {
            let found = try Self.differences(drive, noisy: noisy, beamWidth: beam)
            #expect(found.count == 0, "\(drive)\(noisy ? " (5 m noise)" : ""): \(found.prefix(2))")
        }
    }

    @Test("a beam of e^-1 does change fixes: the comparison can fail")
    func aNarrowerBeamIsSeen() throws {
        var changed = 0
        for drive in SampleDriveList.names where !SampleDriveList.suburbNames.contains(drive) {
            changed += try Self.differences(drive, noisy: true, beamWidth: 1).count
        }
        #expect(changed > 0)
    }
}
