import Foundation
import Testing
import TestSupport

/// `adasis match --speed-latency` on a sample drive whose speeds come a second late.
@Suite struct SpeedLatencyCommandTests {
    /// The estimate `adasis match --speed-latency` prints on standard error, seconds.
    private func estimate(_ stderr: String) -> Double? {
        guard let range = stderr.range(of: "speeds come ") else { return nil }
        return Double(stderr[range.upperBound...].prefix(while: { !$0.isWhitespace }))
    }

    /// Data/drives/NAME.csv with each fix's speed the one of the fix before: a second late.
    private func lateTrace(_ name: String) throws -> String {
        let text = try String(contentsOf: Repository.url("Data/drives/\(name).csv"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        var rows = [lines[0].joined(separator: ",")]
        for k in 1..<lines.count {
            var fields = lines[k]
            fields[3] = lines[max(1, k - 1)][3]
            rows.append(fields.joined(separator: ","))
        }
        let path = ScratchDirectory.path("\(name)-speeds-late.csv")
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("speeds a second late are found (0.7–1.3 s), speeds on time are not (under 0.2 s)")
    func latencyIsLearntFromTheDrive() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let late = try runAdasis(["match", "--map", map, "--speed-latency", try lateTrace("kamppi")])
        try #require(late.status == 0, "\(late.stderr)")
        let found = try #require(estimate(late.stderr), "\(late.stderr)")
        #expect(found > 0.7 && found < 1.3, "\(late.stderr)")
        let onTime = try runAdasis(
            ["match", "--map", map, "--speed-latency", Repository.url("Data/drives/kamppi.csv").path])
        try #require(onTime.status == 0, "\(onTime.stderr)")
        let none = try #require(estimate(onTime.stderr), "\(onTime.stderr)")
        #expect(abs(none) < 0.2, "\(onTime.stderr)")
        // Without the flag nothing is estimated, and nothing printed about it.
        let plain = try runAdasis(["match", "--map", map, Repository.url("Data/drives/kamppi.csv").path])
        #expect(plain.status == 0 && estimate(plain.stderr) == nil, "\(plain.stderr)")
    }

    @Test("--speed-latency is refused with the baseline and without dead reckoning, saying why")
    func refusedWhereNothingLearnsIt() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let trace = Repository.url("Data/drives/kamppi.csv").path
        let baseline = try runAdasis(["match", "--map", map, "--baseline", "--speed-latency", trace])
        #expect(baseline.status != 0 && baseline.stderr.contains("--baseline matcher"), "\(baseline.stderr)")
        let noDeadReckoning = try runAdasis(["match", "--map", map, "--no-dead-reckoning", "--speed-latency", trace])
        #expect(
            noDeadReckoning.status != 0 && noDeadReckoning.stderr.contains("learnt from dead reckoning"),
            "\(noDeadReckoning.stderr)")
    }
}
