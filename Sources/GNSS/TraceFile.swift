import Foundation
import InputPolicy

/// Why a trace file could not be read.
public struct TraceFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What went wrong, with the line where it applies.
    public var problem: String

    /// One sentence for the user.
    public var description: String { "\(path): \(problem)" }
}

/// A place in a recorded drive where the receiver's time goes back (a receiver reset): the drive
/// goes on from there as a new start, and the matcher and the horizon begin again.
public struct TraceReset: Hashable, Sendable, CustomStringConvertible {
    /// The index in ``TraceFile/fixes`` of the first fix after the reset.
    public var fixIndex: Int
    /// The line of that fix in the file (its sentence, row or `<trkpt>`).
    public var line: Int
    /// How far the receiver's time went back, seconds (positive).
    public var backwards: Double

    /// One line for the user.
    public var description: String {
        "line \(line) (fix \(fixIndex + 1)): time goes back \(String(format: "%.1f", backwards)) s, "
            + "taken as a receiver reset; matching and the horizon start again there"
    }
}

/// A recorded drive read from a file: CSV (`time_s,lat,lon,speed_mps,heading_deg`), NMEA 0183
/// (RMC/GGA/VTG) or GPX, told apart by the extension (`.csv`, `.nmea`/`.log`/`.txt`, `.gpx`).
///
/// Times are seconds from the first fix, whatever the format's own time base, so every reader
/// gives the same time line for the same drive. Records that cannot be used are skipped and
/// counted with their lines (``skipped``); a file is refused only when no fix is usable, or at
/// the first bad record under ``BadRecordPolicy/strict``. Where the time goes back (a receiver
/// reset) the drive goes on: the fixes after it are moved to follow the last one before it by the
/// interval before the reset, so the time line stays in order, and the place is kept in ``resets``.
public struct TraceFile: Sendable {
    /// The fixes in time order.
    public var fixes: [GNSSFix]
    /// The records that were skipped, by reason, with the lines of the first few.
    public var skipped: SkippedRecords
    /// Where the receiver's time went back, in order.
    public var resets: [TraceReset]
    /// Time of the first fix on the format's own time base (Unix seconds for NMEA and GPX with dates).
    public var timeOrigin: Double

    /// Reads `path` under `policy`.
    public init(path: String, policy: BadRecordPolicy = .skip) throws(TraceFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TraceFileError(path: path, problem: "cannot read the file (\(error.localizedDescription))")
        }
        // Bytes that are not UTF-8 (line noise on a serial port) become U+FFFD: the record they
        // are in fails its checksum or its field check and is skipped and counted, the rest is used.
        let text = String(decoding: data, as: UTF8.self)
        var (fixes, lines, skipped) = try Self.read(text, path: path)
        if policy == .strict, let first = skipped.first {
            throw TraceFileError(path: path, problem: BadRecordError(record: first).description)
        }
        guard let first = fixes.first else {
            let why = skipped.isEmpty ? "" : "; \(skipped)"
            throw TraceFileError(path: path, problem: "no usable fixes in the file\(why)")
        }
        timeOrigin = first.time
        resets = []
        var shift = -first.time
        fixes[0].time = 0
        for index in fixes.indices.dropFirst() {
            let time = fixes[index].time + shift
            let previous = fixes[index - 1].time
            if time < previous {
                let reset = TraceReset(fixIndex: index, line: lines[index], backwards: previous - time)
                if policy == .strict {
                    throw TraceFileError(
                        path: path,
                        problem: "line \(reset.line): fix \(index + 1) goes back \(reset.backwards) s in time"
                            + " (refused by --strict; without it, the drive restarts there as after a receiver reset)")
                }
                let interval = index >= 2 ? previous - fixes[index - 2].time : 1
                shift += previous + (interval > 0 ? interval : 1) - time
                resets.append(reset)
            }
            fixes[index].time += shift
        }
        self.fixes = fixes
        self.skipped = skipped
    }

    /// Whether a receiver reset comes right before fix `index`.
    public func startsAfterReset(_ index: Int) -> Bool {
        resets.contains { $0.fixIndex == index }
    }

    /// The fixes of `text`, each with its line, and what was skipped, by the file's extension.
    private static func read(_ text: String, path: String) throws(TraceFileError)
        -> (fixes: [GNSSFix], lines: [Int], skipped: SkippedRecords)
    {
        let lowercased = path.lowercased()
        var skipped = SkippedRecords()
        if lowercased.hasSuffix(".csv") {
            do {
                let contents = try CSVTrace.parse(text)
                for problem in contents.skipped { skipped.add(problem.skippedRecord) }
                return (contents.fixes, contents.fixLines, skipped)
            } catch {
                throw TraceFileError(path: path, problem: error.description)
            }
        } else if lowercased.hasSuffix(".gpx") {
            let contents = GPXTrace.read(text: text)
            for problem in contents.skipped { skipped.add(problem.skippedRecord) }
            return (contents.fixes, contents.fixLines, skipped)
        } else if lowercased.hasSuffix(".nmea") || lowercased.hasSuffix(".log") || lowercased.hasSuffix(".txt") {
            var assembler = NMEAFixAssembler()
            var fixes: [GNSSFix] = []
            var lines: [Int] = []
            var number = 0
            for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                number += 1
                // "\r\n" is one Character, so CRLF files count one line per line too.
                if line.isEmpty { continue }
                if let fix = assembler.add(line: line, lineNumber: number) {
                    fixes.append(fix)
                    lines.append(assembler.lineOfLastFix)
                }
            }
            if let fix = assembler.finish() {
                fixes.append(fix)
                lines.append(assembler.lineOfLastFix)
            }
            return (fixes, lines, assembler.skipped)
        }
        throw TraceFileError(
            path: path,
            problem: "unknown trace format; use .csv (time_s,lat,lon,speed_mps,heading_deg), .nmea or .gpx")
    }
}

extension TraceProblem {
    /// The problem as a skipped record, counted by its kind (`bad lat`, `too few fields`).
    var skippedRecord: SkippedRecord {
        let reason: String
        switch kind {
        case .badValue(let column, _): reason = "bad \(column)"
        case .tooFewFields: reason = "too few fields"
        case .missingColumn, .emptyFile: reason = "bad header"
        }
        return SkippedRecord(line: line, reason: reason, detail: description)
    }
}

extension GPXTraceError {
    /// The problem as a skipped record, counted by its kind (`bad lat`, `no time`, `malformed XML`).
    var skippedRecord: SkippedRecord {
        let reason: String
        switch kind {
        case .badValue(let field, _): reason = "bad \(field)"
        case .missingAttribute(let name): reason = "no \(name)"
        case .missingTime: reason = "no time"
        case .badTime: reason = "bad time"
        case .malformed: reason = "malformed XML"
        case .noTrackPoints: reason = "no track points"
        }
        var detail = description
        if case .malformed = kind { detail += "; the track points before it are used" }
        return SkippedRecord(line: line, reason: reason, detail: detail)
    }
}
