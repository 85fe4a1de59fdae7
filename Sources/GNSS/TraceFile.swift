import Foundation

/// Why a trace file could not be read.
public struct TraceFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong, with the line where it applies.
    public var problem: String

    /// One sentence for the user.
    public var description: String { "\(path): \(problem)" }
}

/// A recorded drive read from a file: CSV (`time_s,lat,lon,speed_mps,heading_deg`), NMEA 0183
/// (RMC/GGA/VTG) or GPX, told apart by the extension (`.csv`, `.nmea`/`.log`/`.txt`, `.gpx`).
///
/// Times are seconds from the first fix, whatever the format's own time base, so every reader
/// gives the same time line for the same drive.
public struct TraceFile: Sendable {
    /// The fixes in time order.
    public var fixes: [GNSSFix]
    /// Lines or sentences skipped as malformed (CSV rows, NMEA sentences with bad checksums…).
    public var skippedCount: Int
    /// Time of the first fix on the format's own time base (Unix seconds for NMEA and GPX with dates).
    public var timeOrigin: Double

    /// Reads `path`.
    public init(path: String) throws(TraceFileError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw TraceFileError(path: path, problem: "cannot read the file (\(error.localizedDescription))")
        }
        let lowercased = path.lowercased()
        var fixes: [GNSSFix]
        var skipped = 0
        if lowercased.hasSuffix(".csv") {
            do {
                let contents = try CSVTrace.parse(text)
                fixes = contents.fixes
                skipped = contents.skipped.count
            } catch {
                throw TraceFileError(path: path, problem: error.description)
            }
        } else if lowercased.hasSuffix(".gpx") {
            do {
                fixes = try GPXTrace.parse(text: text)
            } catch {
                throw TraceFileError(path: path, problem: error.description)
            }
        } else if lowercased.hasSuffix(".nmea") || lowercased.hasSuffix(".log") || lowercased.hasSuffix(".txt") {
            var assembler = NMEAFixAssembler()
            fixes = []
            for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
                if let fix = assembler.add(line: line) { fixes.append(fix) }
            }
            if let fix = assembler.finish() { fixes.append(fix) }
            skipped = assembler.rejected.values.reduce(0, +)
        } else {
            throw TraceFileError(
                path: path,
                problem: "unknown trace format; use .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx")
        }
        guard let first = fixes.first else {
            throw TraceFileError(path: path, problem: "no fixes in the file")
        }
        timeOrigin = first.time
        for index in fixes.indices { fixes[index].time -= first.time }
        for index in fixes.indices.dropFirst() where fixes[index].time < fixes[index - 1].time {
            throw TraceFileError(
                path: path,
                problem:
                    "fix \(index + 1) goes back in time (\(fixes[index].time) s after \(fixes[index - 1].time) s); traces must be in time order"
            )
        }
        self.fixes = fixes
        skippedCount = skipped
    }
}
