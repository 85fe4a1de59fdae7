import Foundation
import Testing
import TestSupport

/// The drive commands on a real drive with line noise and a receiver reset written into it (issue
/// 16): bad sentences are skipped and reported with their lines, the drive goes on after the reset,
/// and `--strict` refuses at the first bad line.
@Suite("bad input through the adasis binary", .serialized)
struct BadInputCommandTests {
    /// The Mannerheimintie NMEA drive with two random bytes in every third sentence, then its second
    /// half again (the receiver's time goes back: a reset). Returns the path and the damaged lines.
    static func noisyDriveWithReset() throws -> (path: String, damagedLines: [Int], resetLine: Int) {
        let text = try String(contentsOf: Repository.url("Data/drives/mannerheimintie.nmea"), encoding: .utf8)
        let clean = text.split(whereSeparator: \.isNewline).map { Array($0.utf8) }
        var generator = SplitMix64(seed: 1616)
        var lines: [[UInt8]] = []
        var damaged: [Int] = []
        for (index, line) in clean.enumerated() {
            var bytes = line
            if index % 3 == 1 {
                // Bytes 0x80…0xFF: never a line end, never UTF-8 on their own.
                bytes.insert(
                    contentsOf: [0x80 | generator.byte(), 0x80 | generator.byte()],
                    at: 3 + generator.below(bytes.count - 6))
                damaged.append(index + 1)
            }
            lines.append(bytes)
        }
        let resetLine = lines.count + 1
        lines += clean[(clean.count / 2)...]
        let path = ScratchDirectory.path("bad.nmea")
        try Data(lines.joined(separator: [UInt8(ascii: "\n")])).write(to: URL(fileURLWithPath: path))
        return (path, damaged, resetLine)
    }

    @Test("adasis match keeps the drive: damaged sentences counted with lines, the reset restarts matching")
    func matchGoesOn() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let (path, damaged, resetLine) = try Self.noisyDriveWithReset()
        defer { unlink(path) }
        let result = try runAdasis(["match", "--map", map, path])
        try #require(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count > 487 / 3, "one row per usable fix")
        #expect(result.stderr.contains("skipped"))
        // The report names the first damaged lines.
        #expect(result.stderr.contains("line \(damaged[0]): "), "\(result.stderr)")
        #expect(result.stderr.contains("line \(resetLine) ") && result.stderr.contains("receiver reset"))
        // Times stay in order through the reset, and the vehicle is on a road again after it.
        let times = rows.compactMap { Double($0.split(separator: ",")[0]) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(rows.suffix(20).contains { $0.contains(",on_road,") })

        let strict = try runAdasis(["match", "--map", map, path, "--strict"])
        #expect(strict.status != 0)
        #expect(
            strict.stderr.contains("line \(damaged[0]): ") && strict.stderr.contains("--strict"), "\(strict.stderr)")
    }

    @Test("adasis replay goes through the reset: a new main path starts after it")
    func replayGoesOn() throws {
        try requireBuiltAdasis()
        let map = try GoldenFrameTests.mapPath.get()
        let (path, _, _) = try Self.noisyDriveWithReset()
        let output = path + ".log"
        defer { unlink(path); unlink(output) }
        let result = try runAdasis(["replay", "--map", map, path, "--candump", output])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("receiver reset"))
        let log = try String(contentsOfFile: output, encoding: .utf8)
        #expect(log.split(separator: "\n").count > 1000)
        // The clean drive opens no new main path after its first; the reset does.
        let summary = result.stderr.split(separator: "\n").last { $0.contains("new main paths") } ?? ""
        let newPaths = summary.split(separator: ",").last?.split(separator: " ").first.flatMap { Int($0) }
        #expect((newPaths ?? 0) >= 1, "\(summary)")
    }

    @Test("adasis decode --strict stops at the first bad line; without it the lines are counted by reason")
    func decodeStrict() throws {
        try requireBuiltAdasis()
        let log = try String(contentsOf: Repository.url("Tools/sample-frames.log"), encoding: .utf8)
        let input = Data((log + String(repeating: "garbage\n", count: 8) + "(1.0) vcan0 361#ＡＡ\n").utf8)
        let lenient = try runProcess(Repository.url(".build/debug/adasis"), ["decode", "-"], input: input)
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("9 skipped (8 bad timestamp, 1 bad frame)"), "\(lenient.stderr)")
        let strict = try runProcess(Repository.url(".build/debug/adasis"), ["decode", "-", "--strict"], input: input)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("line 7: expected a timestamp"), "\(strict.stderr)")
        #expect(strict.stdout.split(separator: "\n").count == 6, "the frames before the bad line are printed")
    }
}
