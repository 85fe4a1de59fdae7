import Foundation
import InputPolicy
import Testing
import TestSupport
@testable import GNSS

/// The bad-input policy on the repository's drives with damage written into them (issue 16): bad
/// records are skipped and counted with their lines, a receiver reset goes on, `--strict` refuses.
@Suite("bad records in trace files")
struct BadInputTests {
    /// The lines of a repository drive.
    static func lines(_ name: String) throws -> [String] {
        try String(contentsOf: Repository.url("Data/drives/\(name)"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map(String.init)
    }

    static func write(_ name: String, _ lines: [String]) throws -> String {
        try TraceFileTests.write(name, lines.joined(separator: "\n") + "\n")
    }

    @Test("CSV rows with lat 91.5, nan and garbage are counted by reason with their line numbers")
    func csvBadRows() throws {
        var lines = try Self.lines("kamppi.csv")
        let rows = lines.count - 1
        // Lines 10, 20, 30 (1-based, header is line 1) get bad values; line 40 becomes garbage.
        lines[9] = lines[9].replacingOccurrences(of: "60.", with: "91.5", options: [], range: nil)
        var fields = lines[19].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[2] = "nan"
        lines[19] = fields.joined(separator: ",")
        lines[29] = "\u{1}garbage\u{7f}"
        let path = try Self.write("bad-rows.csv", lines)
        defer { unlink(path) }
        let trace = try TraceFile(path: path)
        #expect(trace.fixes.count == rows - 3)
        #expect(trace.skipped.count == 3)
        #expect(trace.skipped.examples.map(\.line) == [10, 20, 30])
        #expect(trace.skipped.countsByReason == ["bad lat": 1, "bad lon": 1, "too few fields": 1])
        #expect("\(trace.skipped)".contains("line 10: '91.5"))
        #expect {
            try TraceFile(path: path, policy: .strict)
        } throws: {
            "\($0)".contains("line 10:") && "\($0)".contains("--strict")
        }
    }

    @Test("a receiver reset (time back to 0 in the middle of the drive) restarts there and keeps every fix")
    func csvTimeGoesBack() throws {
        var lines = try Self.lines("esplanadi.csv")
        let half = lines.count / 2
        let restart = Double(lines[half].split(separator: ",")[0])!
        for index in half..<lines.count {
            var fields = lines[index].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[0] = String(format: "%.1f", Double(fields[0])! - restart)
            lines[index] = fields.joined(separator: ",")
        }
        let path = try Self.write("reset.csv", lines)
        defer { unlink(path) }
        let trace = try TraceFile(path: path)
        #expect(trace.fixes.count == lines.count - 1)
        #expect(trace.resets.map(\.fixIndex) == [half - 1])
        #expect(trace.resets.first?.line == half + 1)
        #expect(trace.startsAfterReset(half - 1))
        // The time line stays in order: the fixes after the reset follow on one interval later.
        #expect(zip(trace.fixes, trace.fixes.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(abs(trace.fixes[half - 1].time - trace.fixes[half - 2].time - 1) < 1e-9)
        #expect("\(trace.resets[0])".contains("receiver reset"))
        #expect { try TraceFile(path: path, policy: .strict) } throws: { "\($0)".contains("line \(half + 1):") }
    }

    @Test("a receiver reset in an NMEA log (time and date back) is found at its sentence's line")
    func nmeaTimeGoesBack() throws {
        let lines = try Self.lines("mannerheimintie.nmea")
        // The second half of the drive again after the whole drive: its first sentence goes back.
        let path = try Self.write("reset.nmea", lines + lines[(lines.count / 2)...])
        defer { unlink(path) }
        let reference = try TraceFile(path: Repository.url("Data/drives/mannerheimintie.nmea").path)
        let trace = try TraceFile(path: path)
        #expect(trace.resets.count == 1)
        #expect(trace.resets.first?.line == lines.count + 1)
        #expect(trace.fixes.count > reference.fixes.count)
        #expect(trace.skipped.isEmpty)
    }

    @Test("a GPX point with a bad value is skipped with its line; the others are used")
    func gpxBadPoint() throws {
        func point(_ lat: String, _ second: Int) -> String {
            "<trkpt lat=\"\(lat)\" lon=\"24.94\"><time>2024-05-01T12:00:0\(second)Z</time></trkpt>"
        }
        let text = ["<gpx><trk><trkseg>", point("60.17", 0), point("91.5", 1), point("60.1701", 2), "</trkseg></trk>"]
        let path = try Self.write("bad-point.gpx", text)
        defer { unlink(path) }
        let trace = try TraceFile(path: path)
        #expect(trace.fixes.map(\.time) == [0, 2])
        #expect(trace.skipped.examples.map(\.line) == [3])
        #expect(trace.skipped.countsByReason == ["bad lat": 1])
        // Broken XML ends the reading: the points before it are used and the break is reported.
        let cut = try Self.write("cut.gpx", Array(text.prefix(4)) + ["<trkpt lat=\"60.1702\" lon=\"24.94\"><time>"])
        defer { unlink(cut) }
        let partial = try TraceFile(path: cut)
        #expect(partial.fixes.count == 2)
        #expect(partial.skipped.countsByReason["malformed XML"] == 1)
    }

    @Test("a file with no usable fix is refused, naming what was wrong")
    func nothingUsable() throws {
        let path = try Self.write("all-bad.csv", ["time_s,lat,lon,speed_mps,heading_deg", "0,95,24,1,0", "1,x,24,1,0"])
        defer { unlink(path) }
        #expect { try TraceFile(path: path) } throws: {
            "\($0)".contains("no usable fixes") && "\($0)".contains("line 2:")
        }
    }
}
