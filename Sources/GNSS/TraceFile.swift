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
    /// Why they were skipped, a line each: the first CSV rows with their line numbers, or the NMEA
    /// sentences counted by reason.
    public var skippedReasons: [String]
    /// Time of the first fix on the format's own time base (Unix seconds for NMEA and GPX with dates).
    public var timeOrigin: Double

    /// Reads `path`.
    public init(path: String) throws(TraceFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TraceFileError(path: path, problem: "cannot read the file (\(error.localizedDescription))")
        }
        // Bytes that are not UTF-8 (line noise on a serial port) become U+FFFD: the record they
        // are in fails its checksum or its field check and is skipped and counted, the rest is used.
        let text = String(decoding: data, as: UTF8.self)
        let lowercased = path.lowercased()
        var fixes: [GNSSFix]
        var skipped = 0
        var reasons: [String] = []
        if lowercased.hasSuffix(".csv") {
            do {
                let contents = try CSVTrace.parse(text)
                fixes = contents.fixes
                skipped = contents.skipped.count
                reasons = contents.skipped.prefix(5).map(\.description)
                if skipped > 5 { reasons.append("… and \(skipped - 5) more rows") }
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
            reasons = assembler.rejected.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.value) sentences: \($0.key.rawValue)" }
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
        skippedReasons = reasons
    }
}
