/// One line of a candump log (`candump -L`): `(1700000000.123456) vcan0 123#0011223344556677`.
///
/// This is the text format every can-utils tool reads and writes (`canplayer`, `log2asc`, …), so
/// our tools and tests compose with them.
public struct CandumpRecord: Hashable, Sendable {
    /// Timestamp in microseconds since the Unix epoch (or since the start of a replay).
    public var timestampMicroseconds: Int64
    /// The interface name, e.g. `vcan0`.
    public var interface: String
    /// The frame.
    public var frame: CANFrame

    /// Creates a record.
    public init(timestampMicroseconds: Int64, interface: String, frame: CANFrame) {
        self.timestampMicroseconds = timestampMicroseconds
        self.interface = interface
        self.frame = frame
    }

    /// The timestamp in seconds.
    public var timestampSeconds: Double { Double(timestampMicroseconds) / 1_000_000 }

    /// The line as candump -L writes it, without a newline.
    public var line: String {
        // By magnitude, so a negative time (a record made in code) prints as one, not a trap.
        let sign = timestampMicroseconds < 0 ? "-" : ""
        let seconds = timestampMicroseconds.magnitude / 1_000_000
        let microsText = String(timestampMicroseconds.magnitude % 1_000_000)
        let stamp = "(\(sign)\(seconds).\(String(repeating: "0", count: 6 - microsText.count))\(microsText))"
        return "\(stamp) \(interface) \(CandumpRecord.frameText(frame))"
    }

    /// The `ID#DATA` part of a line: `123#0011`, `12345678#AA`, `123#R`, `123#R4`.
    public static func frameText(_ frame: CANFrame) -> String {
        var text =
            frame.isErrorFrame
            ? uppercaseHex(frame.identifier.value | 0x2000_0000, width: 8)
            : frame.identifier.description
        text += "#"
        if frame.isRemoteTransmissionRequest {
            text += "R"
            if frame.dataLengthCode > 0 { text += String(frame.dataLengthCode) }
        } else {
            for i in 0..<frame.dataCount { text += uppercaseHex(UInt32(frame.dataByte(i)), width: 2) }
        }
        return text
    }
}

/// Why a candump log line could not be read.
public enum CandumpParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line does not start with `(seconds.micros)`.
    case badTimestamp(line: Int, text: String)
    /// No interface name after the timestamp.
    case missingInterface(line: Int)
    /// The frame is not `ID#DATA`.
    case badFrame(line: Int, text: String, reason: String)

    /// The 1-based line number of the problem.
    public var lineNumber: Int {
        switch self {
        case .badTimestamp(let line, _), .missingInterface(let line), .badFrame(let line, _, _): return line
        }
    }

    public var description: String {
        switch self {
        case .badTimestamp(let line, let text):
            return "line \(line): expected a timestamp like (1700000000.123456), found '\(text)'"
        case .missingInterface(let line):
            return "line \(line): expected an interface name after the timestamp"
        case .badFrame(let line, let text, let reason):
            return "line \(line): '\(text)' is not a CAN frame in ID#DATA form: \(reason)"
        }
    }
}

/// Reads and writes candump log text.
public enum CandumpLog {
    /// Parses one line. Empty lines and lines starting with `#` are comments and yield `nil`.
    /// - Parameter lineNumber: the 1-based line number used in errors.
    public static func parse(line rawLine: Substring, lineNumber: Int) throws(CandumpParseError) -> CandumpRecord? {
        let line = rawLine.trimmingWhitespace()
        if line.isEmpty || line.hasPrefix("#") { return nil }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let stampField = fields.first, stampField.hasPrefix("("), stampField.hasSuffix(")") else {
            throw .badTimestamp(line: lineNumber, text: String(fields.first ?? ""))
        }
        let stamp = stampField.dropFirst().dropLast()
        let parts = stamp.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]), seconds >= 0,
            (1...9).contains(parts[1].count), parts[1].allSatisfy(\.isASCIIDigit)
        else {
            throw .badTimestamp(line: lineNumber, text: String(stampField))
        }
        // Normalise the fraction to microseconds.
        var fraction = String(parts[1].prefix(6))
        fraction += String(repeating: "0", count: 6 - fraction.count)
        // Seconds beyond what microseconds in an Int64 hold (year 292 000) are not a timestamp: they
        // wrapped to a negative time before (found by Tools/fuzz candump).
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard let micros = Int64(fraction), !overflow, scaled <= Int64.max - micros else {
            throw .badTimestamp(line: lineNumber, text: String(stampField))
        }
        guard fields.count >= 2 else { throw .missingInterface(line: lineNumber) }
        guard fields.count >= 3 else {
            throw .badFrame(line: lineNumber, text: "", reason: "missing after the interface name")
        }
        let frame = try parseFrame(fields[2], lineNumber: lineNumber)
        return CandumpRecord(
            timestampMicroseconds: scaled + micros,
            interface: String(fields[1]), frame: frame)
    }

    /// Parses a whole log. Malformed lines are returned as errors alongside the good records, so a
    /// caller can report them by line number and carry on.
    public static func parse(text: String) -> (records: [CandumpRecord], errors: [CandumpParseError]) {
        var records: [CandumpRecord] = []
        var errors: [CandumpParseError] = []
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            do {
                if let record = try parse(line: line, lineNumber: number) { records.append(record) }
            } catch {
                errors.append(error)
            }
        }
        return (records, errors)
    }

    /// Formats records as candump -L text, one line each, each ending in a newline.
    public static func format(_ records: [CandumpRecord]) -> String {
        var out = ""
        for record in records {
            out += record.line
            out += "\n"
        }
        return out
    }

    /// Parses the `ID#DATA` field of a candump line.
    public static func parseFrame(_ text: Substring, lineNumber: Int) throws(CandumpParseError) -> CANFrame {
        func fail(_ reason: String) -> CandumpParseError {
            .badFrame(line: lineNumber, text: String(text), reason: reason)
        }
        guard let hash = text.firstIndex(of: "#") else { throw fail("no '#'") }
        let idText = text[..<hash]
        var dataText = text[text.index(after: hash)...]
        guard idText.allSatisfy(\.isASCIIHexDigit), let rawID = UInt32(idText, radix: 16) else {
            throw fail("identifier '\(idText)' is not hexadecimal")
        }
        if dataText.hasPrefix("#") { throw fail("CAN FD frames (##) are not supported") }
        let identifier: CANIdentifier
        var isError = false
        switch idText.count {
        case 3:
            guard let id = CANIdentifier(standard: rawID) else { throw fail("standard identifier above 7FF") }
            identifier = id
        case 8:
            if rawID & 0x2000_0000 != 0 { isError = true }
            guard let id = CANIdentifier(extended: rawID & 0x1FFF_FFFF) else { throw fail("identifier too large") }
            identifier = id
        default:
            throw fail("identifier must have 3 (standard) or 8 (extended) hex digits")
        }
        if dataText.hasPrefix("R") || dataText.hasPrefix("r") {
            dataText = dataText.dropFirst()
            let length = dataText.isEmpty ? 0 : UInt8(dataText) ?? 255
            guard length <= 8 else { throw fail("RTR length must be 0-8") }
            do { return try CANFrame(remoteRequest: identifier, length: length) } catch { throw fail("bad RTR") }
        }
        let digits = dataText.filter { $0 != "." }
        guard digits.count % 2 == 0, digits.allSatisfy(\.isASCIIHexDigit) else {
            throw fail("data must be an even number of hex digits")
        }
        guard digits.count <= 16 else { throw fail("more than 8 data bytes") }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else {
                throw fail("data must be an even number of hex digits")
            }
            bytes.append(byte)
            index = next
        }
        do {
            if isError { return try CANFrame(errorClass: identifier.value, data: bytes) }
            return try CANFrame(identifier: identifier, data: bytes)
        } catch {
            throw fail("more than 8 data bytes")
        }
    }
}

extension Character {
    /// `0`…`9` alone (a digit with a combining mark, or a fullwidth digit, is not).
    fileprivate var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
    /// `0`…`9`, `A`…`F` or `a`…`f` alone.
    fileprivate var isASCIIHexDigit: Bool {
        asciiValue.map {
            UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0
                || UInt8(ascii: "A")...UInt8(ascii: "F") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0
        } ?? false
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
