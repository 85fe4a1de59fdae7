/// How a reader treats a record it cannot use (a CSV row with `lat` 91.5, an NMEA sentence with a
/// bad checksum, a candump line that is not a frame).
public enum BadRecordPolicy: String, Hashable, Sendable, CaseIterable {
    /// Skip the record, count it by reason with its line, and go on (the default): a recorded or
    /// live input is refused only when nothing in it is usable.
    case skip
    /// Refuse the input at the first bad record, naming its line (`--strict`).
    case strict
}

/// A record a reader could not use: where it is and why it was left out.
public struct SkippedRecord: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the record; 0 when the input has no lines (a live stream's record
    /// before any line was counted).
    public var line: Int
    /// A short, stable name of the reason (`bad checksum`, `bad lat`): records are counted by it,
    /// and the daemon uses it as a metric label.
    public var reason: String
    /// The whole problem in words, for the user: what is wrong and, where it helps, what to do.
    public var detail: String

    /// A skipped record at `line`, counted under `reason` and described by `detail`.
    public init(line: Int, reason: String, detail: String) {
        self.line = line
        self.reason = reason
        self.detail = detail
    }

    /// `line N: detail`, or the detail alone when the line is not known.
    public var description: String { line > 0 ? "line \(line): \(detail)" : detail }
}

/// An input refused under ``BadRecordPolicy/strict`` at its first bad record.
public struct BadRecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The record that made the input be refused.
    public var record: SkippedRecord

    /// Refuses an input at `record`.
    public init(record: SkippedRecord) { self.record = record }

    /// The record with its line, and how to read the input anyway.
    public var description: String {
        "\(record) (refused by --strict; without it, bad records are skipped and counted)"
    }
}

/// The records an input skipped: every one counted by reason, the first few kept with their lines
/// so the user can look at them. The same for every reader (traces, gpsd, candump), so the commands
/// and the daemon report bad input the same way.
public struct SkippedRecords: Hashable, Sendable, CustomStringConvertible {
    /// How many records are kept as examples by default.
    public static let defaultExampleLimit = 5

    /// How many records are kept in ``examples``.
    public let exampleLimit: Int
    /// All skipped records.
    public private(set) var count = 0
    /// Skipped records by ``SkippedRecord/reason``.
    public private(set) var countsByReason: [String: Int] = [:]
    /// The first ``exampleLimit`` skipped records, in input order.
    public private(set) var examples: [SkippedRecord] = []

    /// None skipped yet; keeps the first `exampleLimit` records as examples.
    public init(exampleLimit: Int = SkippedRecords.defaultExampleLimit) {
        self.exampleLimit = max(0, exampleLimit)
    }

    /// Whether nothing was skipped.
    public var isEmpty: Bool { count == 0 }

    /// The first skipped record, if kept.
    public var first: SkippedRecord? { examples.first }

    /// Counts `record` (and keeps it while fewer than ``exampleLimit`` are kept).
    public mutating func add(_ record: SkippedRecord) {
        count += 1
        countsByReason[record.reason, default: 0] += 1
        if examples.count < exampleLimit { examples.append(record) }
    }

    /// Counts `record` under `policy`: with ``BadRecordPolicy/strict`` the record is thrown instead.
    public mutating func add(_ record: SkippedRecord, policy: BadRecordPolicy) throws(BadRecordError) {
        if policy == .strict { throw BadRecordError(record: record) }
        add(record)
    }

    /// Adds the counts and examples of `other` (records of a later part of the same input).
    public mutating func append(_ other: SkippedRecords) {
        count += other.count
        for (reason, n) in other.countsByReason { countsByReason[reason, default: 0] += n }
        examples.append(contentsOf: other.examples.prefix(max(0, exampleLimit - examples.count)))
    }

    /// One line: the count by reason, then the examples with their lines, e.g.
    /// `12 skipped (7 bad checksum, 5 bad lat): line 3: …; line 9: …; … and 10 more`.
    public var description: String {
        guard count > 0 else { return "none skipped" }
        let reasons = countsByReason.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        var text = "\(count) skipped (\(reasons))"
        if !examples.isEmpty { text += ": " + examples.map(\.description).joined(separator: "; ") }
        if count > examples.count { text += "; … and \(count - examples.count) more" }
        return text
    }
}
