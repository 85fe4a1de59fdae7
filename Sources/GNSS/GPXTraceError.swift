/// A problem in a GPX file, with its 1-based line number.
public struct GPXTraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// The document has no `<trkpt>` at all.
        case noTrackPoints
        /// A `<trkpt>` lacks a required attribute (`lat` or `lon`).
        case missingAttribute(String)
        /// A value is not a number or out of range (`lat`, `lon`, `ele`, `speed`, `course`).
        case badValue(field: String, value: String)
        /// A `<trkpt>` has no `<time>`.
        case missingTime
        /// A `<time>` is not an ISO 8601 date-time such as `2024-05-01T12:00:00Z`.
        case badTime(String)
        /// The XML is cut off or broken (an unterminated tag, comment or track point).
        case malformed(String)
    }
    /// The 1-based line number where the problem is.
    public var line: Int
    /// The problem.
    public var kind: Kind

    /// Creates an error.
    public init(line: Int, kind: Kind) {
        self.line = line
        self.kind = kind
    }

    /// The problem with its line, for messages to the user.
    public var description: String {
        switch kind {
        case .noTrackPoints:
            return "the file has no <trkpt> track points: expected a GPX track (<trk><trkseg><trkpt lat=… lon=…>)"
        case .missingAttribute(let name):
            return "line \(line): <trkpt> has no '\(name)' attribute (both lat and lon are required)"
        case .badValue(let field, let value):
            return "line \(line): '\(value)' is not a valid \(field)"
        case .missingTime:
            return "line \(line): <trkpt> has no <time>; every track point needs an ISO 8601 time"
        case .badTime(let value):
            return "line \(line): '\(value)' is not an ISO 8601 time (expected e.g. 2024-05-01T12:00:00Z)"
        case .malformed(let reason):
            return "line \(line): malformed XML: \(reason)"
        }
    }
}
