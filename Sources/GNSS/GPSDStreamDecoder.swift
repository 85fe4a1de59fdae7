import InputPolicy

/// Turns the bytes of a gpsd watcher stream into fixes: splits lines, decodes each
/// ``GPSDReport``, and keeps counts of what it skipped. Pure: no I/O, no clock.
///
/// gpsd may send several TPV reports for one epoch as more sentences of the cycle arrive; only the
/// first report with a given time becomes a fix (later ones with an equal time are counted in
/// ``repeatedEpochs``), and a fix does not go back in time: a report older than the last fix by up
/// to ``receiverResetAfter`` seconds (it arrived after a newer fix superseded it) is a late report,
/// skipped with reason `late` in ``skipped`` (so the daemon's metrics count it) and in
/// ``lateReports``. A time more than ``receiverResetAfter`` seconds back is a receiver reset:
/// the fix is kept and counted in ``receiverResets``, and the time line goes on from it (before,
/// every fix was dropped until the receiver's clock caught up with the old one).
public struct GPSDStreamDecoder: Sendable {
    /// Lines longer than this (bytes) are discarded and counted as malformed.
    public static let maximumLineLength = 65_536
    /// Seconds a fix's time may go back before it counts as a receiver reset rather than a late report.
    public static let receiverResetAfter = 2.0

    /// Complete lines seen (including empty and malformed ones).
    public private(set) var lines = 0
    /// Lines that were not valid reports.
    public private(set) var malformedLines = 0
    /// The most recent decoding problem, for a log message.
    public private(set) var lastProblem: GPSDReportError?
    /// Reports of classes other than TPV, by class.
    public private(set) var ignoredReports: [String: Int] = [:]
    /// TPV reports without a usable fix (mode below 2, or no time or position).
    public private(set) var reportsWithoutFix = 0
    /// TPV reports with the same time as the last fix (gpsd reporting an epoch again).
    public private(set) var repeatedEpochs = 0
    /// TPV reports older than the last fix by at most ``receiverResetAfter`` seconds, skipped
    /// (also in ``skipped``, reason `late`).
    public private(set) var lateReports = 0
    /// Fixes produced.
    public private(set) var fixes = 0
    /// Fixes whose time went back more than ``receiverResetAfter`` (a receiver reset); each was kept.
    public private(set) var receiverResets = 0
    /// The lines that were not valid reports, by reason, with the line numbers of the first few.
    public private(set) var skipped = SkippedRecords()

    private var partial: [UInt8] = []
    private var discardingLongLine = false
    private var lastFixTime: Double?

    /// Creates a decoder with empty counts.
    public init() {}

    /// Feeds received bytes; returns the fixes of the lines they completed, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [GNSSFix] {
        var result: [GNSSFix] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discardingLongLine {
                    discardingLongLine = false
                } else if let fix = decodeLine(partial) {
                    result.append(fix)
                }
                partial.removeAll(keepingCapacity: true)
                continue
            }
            if discardingLongLine { continue }
            if partial.count >= Self.maximumLineLength {
                lines += 1
                malformedLines += 1
                let problem = GPSDReportError(
                    kind: .lineTooLong, line: String(decoding: partial.prefix(200), as: UTF8.self))
                lastProblem = problem
                skipped.add(problem.skippedRecord(line: lines))
                discardingLongLine = true
                partial.removeAll(keepingCapacity: true)
                continue
            }
            partial.append(byte)
        }
        return result
    }

    /// Forgets a partial line, e.g. after the connection dropped mid-line. Counts are kept.
    public mutating func discardPartialLine() {
        partial.removeAll()
        discardingLongLine = false
    }

    private mutating func decodeLine(_ bytes: [UInt8]) -> GNSSFix? {
        lines += 1
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
        let report: GPSDReport
        do {
            report = try GPSDReport.decode(text)
        } catch {
            malformedLines += 1
            lastProblem = error
            skipped.add(error.skippedRecord(line: lines))
            return nil
        }
        switch report {
        case .ignored(let name):
            ignoredReports[name, default: 0] += 1
            return nil
        case .position(let position):
            guard let fix = position.fix else {
                reportsWithoutFix += 1
                return nil
            }
            if let last = lastFixTime, fix.time <= last {
                if fix.time == last {
                    repeatedEpochs += 1
                    return nil
                }
                guard last - fix.time > Self.receiverResetAfter else {
                    lateReports += 1
                    skipped.add(lateRecord(fix.time, after: last))
                    return nil
                }
                receiverResets += 1
            }
            lastFixTime = fix.time
            fixes += 1
            return fix
        }
    }
}

extension GPSDStreamDecoder {
    /// A TPV report at `time`, older than the last fix at `last`, as a skipped record.
    private func lateRecord(_ time: Double, after last: Double) -> SkippedRecord {
        let behind = ((last - time) * 1000).rounded() / 1000  // whole milliseconds
        return SkippedRecord(
            line: lines, reason: "late",
            detail: "gpsd sent a TPV report \(behind) s older than the fix before it (a late report, skipped)")
    }
}

extension GPSDReportError {
    /// The problem as a skipped record at stream line `line`, counted by its kind.
    func skippedRecord(line: Int) -> SkippedRecord {
        let reason: String
        switch kind {
        case .notAReport: reason = "not a report"
        case .badMember(let name): reason = "bad \(name)"
        case .lineTooLong: reason = "line too long"
        }
        return SkippedRecord(line: line, reason: reason, detail: description)
    }
}
