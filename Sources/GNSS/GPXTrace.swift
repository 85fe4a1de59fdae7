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

/// A GPS track in GPX 1.0/1.1: `<trkpt lat lon>` with `<time>`, optional `<ele>`, and `<speed>`
/// (m/s) and `<course>` (degrees) either directly inside the point (GPX 1.0) or in its
/// `<extensions>` under any namespace prefix (e.g. Garmin's `gpxtpx:speed`).
///
/// Read by a small scanner of its own: no XML library, no Foundation.
public enum GPXTrace {
    /// Parses GPX text into fixes in document order, times in seconds from the first point.
    public static func parse(text: String) throws(GPXTraceError) -> [GNSSFix] {
        var scanner = GPXScanner(bytes: Array(text.utf8))
        var points: [(line: Int, point: GPXScanner.Point)] = []
        while let item = try scanner.nextTrackPoint() { points.append(item) }
        guard let first = points.first else { throw GPXTraceError(line: 0, kind: .noTrackPoints) }
        let start = first.point.time
        return points.map { _, p in
            GNSSFix(
                time: p.time - start, latitude: p.latitude, longitude: p.longitude, speed: p.speed,
                heading: p.course, altitude: p.elevation)
        }
    }
}

/// Walks the bytes of a GPX document, one track point at a time.
struct GPXScanner {
    /// The fields of one track point; `time` in seconds since 1970-01-01 UTC.
    struct Point {
        var latitude = 0.0, longitude = 0.0, time = 0.0
        var elevation: Double?, speed: Double?, course: Double?
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// Character data read since it was last cleared.
    private var text: [UInt8] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// A start, end or empty-element tag: its local name (namespace prefix dropped) and attributes.
    private struct Tag {
        var name: String
        var isEnd = false
        var isEmpty = false
        var attributes: [String: String] = [:]
    }

    /// The next `<trkpt>` with its line, or `nil` at the end of the document.
    mutating func nextTrackPoint() throws(GPXTraceError) -> (line: Int, point: Point)? {
        while let tag = try nextTag() {
            text.removeAll(keepingCapacity: true)
            guard !tag.isEnd, tag.name == "trkpt" else { continue }
            let startLine = line
            func number(_ name: String, _ range: ClosedRange<Double>) throws(GPXTraceError) -> Double {
                guard let text = tag.attributes[name] else {
                    throw GPXTraceError(line: startLine, kind: .missingAttribute(name))
                }
                return try GPXScanner.number(text, field: name, range: range, line: startLine)
            }
            var point = Point()
            point.latitude = try number("lat", -90...90)
            point.longitude = try number("lon", -180...180)
            var time: Double?
            if !tag.isEmpty { time = try readChildren(of: &point) }
            guard let time else { throw GPXTraceError(line: startLine, kind: .missingTime) }
            point.time = time
            return (startLine, point)
        }
        return nil
    }

    /// Reads the children of a `<trkpt>` up to its end tag; returns its time if present.
    private mutating func readChildren(of point: inout Point) throws(GPXTraceError) -> Double? {
        var time: Double?
        var depth = 0
        while true {
            let textLine = line
            text.removeAll(keepingCapacity: true)
            guard let tag = try nextTag() else {
                throw GPXTraceError(line: line, kind: .malformed("the document ends inside a <trkpt>"))
            }
            if !tag.isEnd {
                if !tag.isEmpty { depth += 1 }
                continue
            }
            if depth == 0 { return time }  // </trkpt>
            depth -= 1
            let value = String(decoding: text, as: UTF8.self).trimmed
            switch tag.name {
            case "time":
                guard let seconds = ISO8601Time.seconds(value) else {
                    throw GPXTraceError(line: textLine, kind: .badTime(value))
                }
                time = seconds
            case "ele":
                point.elevation = try GPXScanner.number(value, field: "ele", range: -20_000...100_000, line: textLine)
            case "speed": point.speed = try GPXScanner.number(value, field: "speed", range: 0...1000, line: textLine)
            case "course":
                let course = try GPXScanner.number(value, field: "course", range: -360...720, line: textLine)
                point.course = (course.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            default: break
            }
        }
    }

    private static func number(_ text: String, field: String, range: ClosedRange<Double>, line: Int)
        throws(GPXTraceError) -> Double
    {
        guard let value = Double(text.trimmed), value.isFinite, range.contains(value) else {
            throw GPXTraceError(line: line, kind: .badValue(field: field, value: text))
        }
        return value
    }

    /// Skips to the next tag (over comments, declarations and processing instructions), appending
    /// the character data before it to `text`.
    private mutating func nextTag() throws(GPXTraceError) -> Tag? {
        while index < bytes.count {
            let byte = bytes[index]
            if byte != UInt8(ascii: "<") {
                if byte == UInt8(ascii: "\n") { line += 1 }
                text.append(byte)
                index += 1
                continue
            }
            if starts(with: "<!--") { try skip(past: "-->", what: "comment"); continue }
            if starts(with: "<![CDATA[") {
                let begin = index + 9
                try skip(past: "]]>", what: "CDATA section")
                text.append(contentsOf: bytes[begin..<(index - 3)])
                continue
            }
            if starts(with: "<?") { try skip(past: "?>", what: "processing instruction"); continue }
            if starts(with: "<!") { try skip(past: ">", what: "declaration"); continue }
            return try readTag()
        }
        return nil
    }

    private mutating func readTag() throws(GPXTraceError) -> Tag {
        let tagLine = line
        index += 1
        var tag = Tag(name: "")
        if index < bytes.count, bytes[index] == UInt8(ascii: "/") { tag.isEnd = true; index += 1 }
        tag.name = localName(readName())
        guard !tag.name.isEmpty else {
            throw GPXTraceError(line: tagLine, kind: .malformed("a '<' that starts no tag"))
        }
        while true {
            skipSpaces()
            guard index < bytes.count else {
                throw GPXTraceError(line: tagLine, kind: .malformed("unterminated <\(tag.name)> tag"))
            }
            if bytes[index] == UInt8(ascii: ">") { index += 1; return tag }
            if starts(with: "/>") { index += 2; tag.isEmpty = true; return tag }
            let name = readName()
            skipSpaces()
            guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw GPXTraceError(line: line, kind: .malformed("bad attribute in <\(tag.name)>"))
            }
            index += 1
            skipSpaces()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw GPXTraceError(
                    line: line, kind: .malformed("attribute \(name) of <\(tag.name)> has no quoted value"))
            }
            let quote = bytes[index]
            index += 1
            let begin = index
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            guard index < bytes.count else {
                throw GPXTraceError(line: tagLine, kind: .malformed("unterminated attribute \(name)"))
            }
            tag.attributes[localName(name)] = String(decoding: bytes[begin..<index], as: UTF8.self)
            index += 1
        }
    }

    private mutating func readName() -> String {
        let begin = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: ">") || b == UInt8(ascii: "/") || b == UInt8(ascii: "=") || b <= 0x20 { break }
            index += 1
        }
        return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    private func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] <= 0x20 {
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
    }

    private func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { bytes[index + $0] == pattern[$0] }
        }
    }

    private mutating func skip(past literal: StaticString, what: String) throws(GPXTraceError) {
        let startLine = line
        while index < bytes.count {
            if starts(with: literal) { index += literal.utf8CodeUnitCount; return }
            if bytes[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        throw GPXTraceError(line: startLine, kind: .malformed("unterminated \(what)"))
    }
}
