import ADASISv2
import Foundation
import SocketCAN
import Testing
import TestSupport

/// Golden-frame regression: the frames `adasis replay` writes for a few short drives on the sample
/// map must equal the checked-in logs in Tests/adasisTests/Golden/. When the output changes on
/// purpose, regenerate them with `Tools/update-golden` (which checks them through the DBC and the
/// reconstructor first) and review the diff.
@Suite("golden frames", .serialized)
struct GoldenFrameTests {
    struct Entry: CustomStringConvertible, Sendable {
        var name: String, trace: String, preset: String, seconds: String
        var description: String { name }
    }

    static let entries: [Entry] = {
        let text =
            (try? String(
                contentsOf: Repository.root.appendingPathComponent("Tests/adasisTests/Golden/drives.txt"),
                encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            return fields.count == 4
                ? Entry(name: fields[0], trace: fields[1], preset: fields[2], seconds: fields[3]) : nil
        }
    }()

    static let mapPath: Result<String, Error> = Result {
        let path = ScratchDirectory.path("golden.map")
        let result = try run(["map", "import", "Data/helsinki.osm.pbf", "-o", path, "--country", "FI"])
        guard result.status == 0 else { throw GoldenError.importFailed(result.stderr) }
        return path
    }

    enum GoldenError: Error { case importFailed(String) }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runAdasis(arguments)
    }

    static func replayArguments(_ entry: Entry, map: String) -> [String] {
        ["replay", "--map", map, "Data/drives/\(entry.trace)", "--preset", entry.preset, "--duration", entry.seconds]
    }

    /// Replays `entry` to vcan0 inside the real kernel while candump records; stdout is the recording.
    static func replayToVcan(_ entry: Entry, map: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let arguments = replayArguments(entry, map: map).map { "'\($0)'" }.joined(separator: " ")
        return try runInVcanKernel(
            """
            set -e
            log=$(mktemp); trap 'rm -f "$log" "$log.err"' EXIT
            # A large receive buffer (-r, forced as root): the replay sends as fast as it can, and a
            # slow, loaded machine must not drop frames at candump's socket.
            candump -r 8388608 -L vcan0 > "$log" &
            dumper=$!
            sleep 1
            .build/debug/adasis \(arguments) --can vcan0 2> "$log.err" || { cat "$log.err" >&2; exit 1; }
            cat "$log.err" >&2
            # candump may still be reading the burst; stop it only when it has every frame sent.
            Tools/candump-wait "$log" --report "$log.err"
            kill $dumper; wait $dumper || true
            cat "$log"
            """)
    }

    static func golden(_ entry: Entry) throws -> [CandumpRecord] {
        let text = try String(
            contentsOf: Repository.root.appendingPathComponent("Tests/adasisTests/Golden/\(entry.name).log"),
            encoding: .utf8)
        let parsed = CandumpLog.parse(text: text)
        try #require(parsed.errors.isEmpty, "golden log \(entry.name) has malformed lines: \(parsed.errors.prefix(3))")
        return parsed.records
    }

    @Test("replay reproduces the golden log byte for byte", arguments: entries)
    func replayEqualsGolden(entry: Entry) throws {
        try requireBuiltAdasis()
        let map = try Self.mapPath.get()
        let output = ScratchDirectory.path("golden-\(entry.name).log")
        defer { unlink(output) }
        let result = try Self.run(Self.replayArguments(entry, map: map) + ["--candump", output])
        try #require(result.status == 0, "adasis replay failed: \(result.stderr)")
        let produced = CandumpLog.parse(text: try String(contentsOfFile: output, encoding: .utf8)).records
        let expected = try Self.golden(entry)
        let differences = FrameDifference.describe(expected: expected, produced: produced, timestamps: true)
        #expect(
            differences.isEmpty,
            "\(entry.name) differs from its golden log (Tools/update-golden regenerates it on purpose):\n\(differences.joined(separator: "\n"))"
        )
    }

    @Test("replay to vcan0 in a real kernel: candump records the golden frames", arguments: entries.prefix(1))
    func replayToVcan(entry: Entry) throws {
        try requireBuiltAdasis()
        let map = try Self.mapPath.get()
        let result = try Self.replayToVcan(entry, map: map)
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)")
        let recorded = CandumpLog.parse(text: result.stdout).records
        let differences = FrameDifference.describe(
            expected: try Self.golden(entry), produced: recorded, timestamps: false)
        #expect(
            differences.isEmpty,
            "frames on vcan0 differ from the golden log:\n\(differences.joined(separator: "\n"))\n\(result.stderr)")
    }
}

/// A readable comparison of two frame logs: differing frames decoded field by field.
enum FrameDifference {
    static func describe(expected: [CandumpRecord], produced: [CandumpRecord], timestamps: Bool, limit: Int = 8)
        -> [String]
    {
        var lines: [String] = []
        if expected.count != produced.count {
            lines.append("frame count \(produced.count), expected \(expected.count)")
        }
        var shown = 0
        var differing = 0
        for index in 0..<min(expected.count, produced.count) {
            let a = expected[index], b = produced[index]
            let sameFrame = a.frame == b.frame
            let sameTime = !timestamps || a.timestampMicroseconds == b.timestampMicroseconds
            if sameFrame && sameTime { continue }
            differing += 1
            guard shown < limit else { continue }
            shown += 1
            var line = "frame \(index + 1) at \(String(format: "%.3f", b.timestampSeconds)) s"
            if !sameTime { line += " (expected at \(String(format: "%.3f", a.timestampSeconds)) s)" }
            if !sameFrame { line += ": " + fields(a.frame, b.frame) }
            lines.append(line)
        }
        if differing > shown { lines.append("… \(differing - shown) more differing frames") }
        return lines
    }

    static func fields(_ expected: CANFrame, _ produced: CANFrame) -> String {
        guard let want = try? ADASISMessage.decode(expected.data), let got = try? ADASISMessage.decode(produced.data)
        else {
            return "\(CandumpRecord.frameText(produced)), expected \(CandumpRecord.frameText(expected))"
        }
        if want.type != got.type { return "\(got.type) message, expected \(want.type): \(got) vs \(want)" }
        let a = Mirror(reflecting: payload(want)).children, b = Mirror(reflecting: payload(got)).children
        var changes: [String] = []
        for (x, y) in zip(a, b) where "\(x.value)" != "\(y.value)" {
            changes.append("\(x.label ?? "?") \(y.value) (expected \(x.value))")
        }
        if expected.identifier != produced.identifier {
            changes.append("identifier \(produced.identifier) (expected \(expected.identifier))")
        }
        return "\(got.type): " + changes.joined(separator: ", ")
    }

    private static func payload(_ message: ADASISMessage) -> Any {
        switch message {
        case .position(let m): return m
        case .segment(let m): return m
        case .stub(let m): return m
        case .profileShort(let m): return m
        case .profileLong(let m): return m
        case .metaData(let m): return m
        }
    }
}
