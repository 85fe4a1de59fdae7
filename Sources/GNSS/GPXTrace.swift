/// A GPS track in GPX 1.0/1.1: `<trkpt lat lon>` with `<time>`, optional `<ele>`, and `<speed>`
/// (m/s) and `<course>` (degrees) either directly inside the point (GPX 1.0) or in its
/// `<extensions>` under any namespace prefix (e.g. Garmin's `gpxtpx:speed`).
///
/// Read by a small scanner of its own: no XML library, no Foundation.
public enum GPXTrace {
    /// What a lenient read found: the usable points and the problems of the others.
    public struct Contents: Sendable {
        /// Fixes in document order, times in seconds since 1970-01-01 UTC.
        public var fixes: [GNSSFix]
        /// The line of each fix's `<trkpt>`.
        public var fixLines: [Int]
        /// Track points left out (a bad value, no time), and the place where broken XML stopped
        /// the reading (the points before it are kept), in document order.
        public var skipped: [GPXTraceError]
    }

    /// Parses GPX text into fixes in document order, times in seconds from the first point.
    /// Throws the first problem: a bad track point refuses the whole document.
    public static func parse(text: String) throws(GPXTraceError) -> [GNSSFix] {
        let contents = read(text: text)
        if let problem = contents.skipped.first { throw problem }
        guard let start = contents.fixes.first?.time else { throw GPXTraceError(line: 0, kind: .noTrackPoints) }
        return contents.fixes.map { fix in
            var fix = fix
            fix.time -= start
            return fix
        }
    }

    /// Reads every usable track point, skipping the bad ones; XML that breaks off ends the reading
    /// with the points before it. Never throws: the caller decides what an empty result means.
    public static func read(text: String) -> Contents {
        var scanner = GPXScanner(bytes: Array(text.utf8))
        var contents = Contents(fixes: [], fixLines: [], skipped: [])
        while true {
            let item: (line: Int, point: Result<GPXScanner.Point, GPXTraceError>)?
            do {
                item = try scanner.nextTrackPoint()
            } catch {
                contents.skipped.append(error)
                break
            }
            guard let item else { break }
            switch item.point {
            case .success(let p):
                contents.fixes.append(
                    GNSSFix(
                        time: p.time, latitude: p.latitude, longitude: p.longitude, speed: p.speed,
                        heading: p.course, altitude: p.elevation))
                contents.fixLines.append(item.line)
            case .failure(let problem):
                contents.skipped.append(problem)
            }
        }
        return contents
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

    /// The next `<trkpt>` with its line and its point, or the problem that makes the point unusable
    /// (the scanner is then past its end tag); `nil` at the end of the document. Throws only for
    /// XML that breaks off or is not XML, after which nothing more can be read.
    mutating func nextTrackPoint() throws(GPXTraceError) -> (line: Int, point: Result<Point, GPXTraceError>)? {
        while let tag = try nextTag() {
            text.removeAll(keepingCapacity: true)
            guard !tag.isEnd, tag.name == "trkpt" else { continue }
            let startLine = line
            var problem: GPXTraceError?
            func number(_ name: String, _ range: ClosedRange<Double>) -> Double {
                guard let text = tag.attributes[name] else {
                    problem = problem ?? GPXTraceError(line: startLine, kind: .missingAttribute(name))
                    return 0
                }
                switch GPXScanner.number(text, field: name, range: range, line: startLine) {
                case .success(let value): return value
                case .failure(let error):
                    problem = problem ?? error
                    return 0
                }
            }
            var point = Point()
            point.latitude = number("lat", -90...90)
            point.longitude = number("lon", -180...180)
            var time: Double?
            if !tag.isEmpty { time = try readChildren(of: &point, problem: &problem) }
            if let problem { return (startLine, .failure(problem)) }
            guard let time else { return (startLine, .failure(GPXTraceError(line: startLine, kind: .missingTime))) }
            point.time = time
            return (startLine, .success(point))
        }
        return nil
    }

    /// Reads the children of a `<trkpt>` up to its end tag; returns its time if present. The first
    /// bad value goes to `problem` (the rest of the point is still read, to find its end).
    private mutating func readChildren(of point: inout Point, problem: inout GPXTraceError?) throws(GPXTraceError)
        -> Double?
    {
        var time: Double?
        var depth = 0
        func value(_ result: Result<Double, GPXTraceError>) -> Double? {
            switch result {
            case .success(let value): return value
            case .failure(let error):
                problem = problem ?? error
                return nil
            }
        }
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
            let content = String(decoding: text, as: UTF8.self).trimmed
            switch tag.name {
            case "time":
                guard let seconds = ISO8601Time.seconds(content) else {
                    problem = problem ?? GPXTraceError(line: textLine, kind: .badTime(content))
                    continue
                }
                time = seconds
            case "ele":
                point.elevation = value(
                    GPXScanner.number(content, field: "ele", range: -20_000...100_000, line: textLine))
            case "speed":
                point.speed = value(GPXScanner.number(content, field: "speed", range: 0...1000, line: textLine))
            case "course":
                if let course = value(GPXScanner.number(content, field: "course", range: -360...720, line: textLine)) {
                    point.course =
                        (course.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
                }
            default: break
            }
        }
    }

    private static func number(_ text: String, field: String, range: ClosedRange<Double>, line: Int)
        -> Result<Double, GPXTraceError>
    {
        guard let value = Double(text.trimmed), value.isFinite, range.contains(value) else {
            return .failure(GPXTraceError(line: line, kind: .badValue(field: field, value: text)))
        }
        return .success(value)
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
