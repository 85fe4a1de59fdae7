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

    @Test(
        "on the six noisy city drives with speeds a second late, learning the latency or knowing it matches better than neither"
    )
    func latencyTakenOffMatchesBetter() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        var neither = 0, learnt = 0, known = 0, fixes = 0
        for name in ["esplanadi", "kaisaniemi", "kamppi", "kruununhaka", "mannerheimintie", "ullanlinna"] {
            let truth = try trueWays(name)
            let trace = try lateTrace("\(name)-noisy")
            func correct(_ extra: [String]) throws -> Int {
                let run = try runAdasis(["match", "--map", map] + extra + [trace])
                try #require(run.status == 0, "\(run.stderr)")
                let ways = matchedWays(run.stdout)
                try #require(ways.count == truth.count)
                return zip(ways, truth).filter { $0 == $1 }.count
            }
            neither += try correct([])
            learnt += try correct(["--speed-latency"])
            known += try correct(["--known-speed-latency", "1"])
            fixes += truth.count
        }
        // Measured: 1 465, 1 485 and 1 487 of 1 565 (kruununhaka and mannerheimintie lose a fix or three).
        #expect(learnt >= neither + 10 && known >= neither + 10, "\(neither), \(learnt), \(known) of \(fixes)")
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
        let both = try runAdasis(["match", "--map", map, "--speed-latency", "--known-speed-latency", "0.3", trace])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
        let outside = try runAdasis(["match", "--map", map, "--known-speed-latency", "2.5", trace])
        #expect(outside.status != 0 && outside.stderr.contains("from -1 to 2"), "\(outside.stderr)")
    }
}
