import Foundation
import TestSupport
import Testing

/// `adasis horizon` with the peers' options on the sample map: several MPPs, levels, zero-probability paths.
@Suite(
    "adasis horizon: --mpp-splits, --max-level, --one-link-level, --u-turns-off-side-paths, --cul-de-sac-factor",
    .serialized)
struct HorizonPeerOptionsTests {
    /// The JSON lines of `adasis horizon` on a drive (the noisy kamppi one unless `drive` names
    /// another in `Data/drives`) with `options`.
    static func lines(_ options: [String], drive: String = "kamppi-noisy") throws -> [[String: Any]] {
        try requireBuiltAdasis()
        let result = try runAdasis(
            [
                "horizon", "--map", try GoldenFrameTests.mapPath.get(),
                Repository.url("Data/drives/\(drive).csv").path,
            ]
                + options)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("--mpp-splits lists junctions ahead where an alternative is within 5 % of the main path's continuation")
    func mppSplits() throws {
        let plain = try Self.lines([])
        #expect(plain.allSatisfy { $0["mpp_splits"] == nil }, "the field only on request")
        let lines = try Self.lines(["--mpp-splits"])
        #expect(lines.count == plain.count)
        var splits = 0
        for line in lines {
            let list = try #require(line["mpp_splits"] as? [[String: Any]])
            for split in list {
                splits += 1
                let main = try #require((split["main_path"] as? [String: Any])?["probability"] as? Double)
                let alternatives = try #require(split["alternatives"] as? [[String: Any]])
                #expect(!alternatives.isEmpty)
                for alternative in alternatives {
                    let probability = try #require(alternative["probability"] as? Double)
                    #expect(main - probability <= 0.05 + 0.001, "\(split)")
                }
                #expect(try #require(split["distance_m"] as? Double) >= 0)
            }
        }
        // Measured: 20 of the 251 fixes see a split ahead.
        #expect(splits >= 10, "only \(splits) splits on the kamppi drive")
    }

    @Test("--max-level 4 builds level-3 and level-4 side paths; --one-link-level adds one-link paths one level below")
    func levels() throws {
        func deepest(_ lines: [[String: Any]]) -> Int {
            lines.flatMap { ($0["side_paths"] as? [[String: Any]]) ?? [] }.compactMap { $0["level"] as? Int }.max() ?? 0
        }
        #expect(deepest(try Self.lines([])) == 2)
        #expect(deepest(try Self.lines(["--max-level", "4"])) == 4)
        let oneLink = try Self.lines(["--max-level", "1", "--one-link-level"])
        #expect(deepest(oneLink) == 2)
        for line in oneLink {
            for path in (line["side_paths"] as? [[String: Any]]) ?? [] where path["level"] as? Int == 2 {
                // One link: at most one way, and a link is shorter than the look-ahead.
                #expect(((path["ways"] as? [Any]) ?? []).count <= 1, "\(path)")
            }
        }
        let bad = try runAdasis(["horizon", "--map", "x.map", "y.csv", "--max-level=-1"])
        #expect(bad.status != 0 && bad.stderr.contains("--max-level must be 0 or more"), "\(bad.stderr)")
    }

    @Test(
        "--u-turns offers U-turns off the main path only; --u-turns-off-side-paths off side paths too, and needs --u-turns"
    )
    func uTurnsOffSidePaths() throws {
        /// The deepest level of the U-turn side paths (turn angle 180°, probability 0) over all fixes.
        func deepestUTurn(_ lines: [[String: Any]]) -> Int {
            lines.flatMap { ($0["side_paths"] as? [[String: Any]]) ?? [] }
                .filter { $0["turn_angle_deg"] as? Double == 180 && $0["probability"] as? Double == 0 }
                .compactMap { $0["level"] as? Int }.max() ?? 0
        }
        #expect(deepestUTurn(try Self.lines([])) == 0)
        #expect(deepestUTurn(try Self.lines(["--u-turns"])) == 1)
        #expect(deepestUTurn(try Self.lines(["--u-turns", "--u-turns-off-side-paths"])) == 2)
        let bad = try runAdasis(["horizon", "--map", "x.map", "y.csv", "--u-turns-off-side-paths"])
        #expect(bad.status != 0 && bad.stderr.contains("--u-turns-off-side-paths needs --u-turns"), "\(bad.stderr)")
    }

    @Test("--cul-de-sac-factor 1 turns the cul-de-sac rule off: the main path drives into a dead end and back")
    func culDeSacFactor() throws {
        /// Fixes whose main path drives a way again within its first 500 m (into a dead end and back).
        func turningRound(_ lines: [[String: Any]]) -> Int {
            lines.filter { line in
                var seen: Set<Int> = []
                var previous: Int?
                var distance = 0.0
                for way in (line["main_path"] as? [[String: Any]]) ?? [] {
                    guard distance < 500, let id = way["way_id"] as? Int else { break }
                    if id != previous, !seen.insert(id).inserted { return true }
                    previous = id
                    distance += way["length_m"] as? Double ?? 0
                }
                return false
            }.count
        }
        // Measured on the noisy ullanlinna drive (301 fixes): 2 with the rule, 168 without.
        let with = turningRound(try Self.lines([], drive: "ullanlinna-noisy"))
        let without = turningRound(try Self.lines(["--cul-de-sac-factor", "1"], drive: "ullanlinna-noisy"))
        #expect(with < 10 && without > 100, "with \(with), without \(without)")
        let bad = try runAdasis(["horizon", "--map", "x.map", "y.csv", "--cul-de-sac-factor", "2"])
        #expect(bad.status != 0 && bad.stderr.contains("--cul-de-sac-factor must be a factor in 0…1"), "\(bad.stderr)")
    }
}
