/// A value of a TOML configuration file.
public enum TOMLValue: Hashable, Sendable, CustomStringConvertible {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int64)
    /// A floating-point number.
    case float(Double)
    /// A boolean.
    case boolean(Bool)
    /// An array.
    case array([TOMLValue])

    /// The value as TOML would write it.
    public var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .integer(let value): return String(value)
        case .float(let value): return String(value)
        case .boolean(let value): return String(value)
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

/// A syntax error in a TOML file, with its line.
public struct TOMLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// One sentence for the user.
    public var description: String { "line \(line): \(message)" }
}

/// The key/value pairs of a TOML file, flattened to dotted keys (`can.interface`), each with the
/// line it was defined on.
///
/// Supports the part of TOML a configuration file needs: comments, `[table]` and
/// `[table.sub]` headers, bare and quoted keys, dotted keys, basic and literal strings,
/// integers (decimal, `0x`, `_` separators), floats, booleans and arrays (also over several
/// lines). Inline tables, dates and multi-line strings are reported as unsupported.
public struct TOMLDocument: Sendable {
    /// Values by dotted key.
    public private(set) var values: [String: TOMLValue] = [:]
    /// The line each key was defined on.
    public private(set) var lines: [String: Int] = [:]

    /// Parses `text`.
    public init(parsing text: String) throws(TOMLSyntaxError) {
        var table = ""
        var pending = ""
        var pendingLine = 0
        var pendingBrackets = BracketDepth()
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = index + 1
            let line = TOMLDocument.strippingComment(String(rawLine)).trimmingWhitespace()
            if !pending.isEmpty {
                pending += " " + line
                pendingBrackets.scan(line[...])
                if pendingBrackets.balanced {
                    try assign(pending, table: table, line: pendingLine)
                    pending = ""
                }
                continue
            }
            if line.isEmpty { continue }
            if line.hasPrefix("[[") {
                throw TOMLSyntaxError(line: lineNumber, message: "arrays of tables ([[…]]) are not supported")
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    throw TOMLSyntaxError(line: lineNumber, message: "table header without closing ']'")
                }
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
                table = try TOMLDocument.keyPath(name, line: lineNumber).joined(separator: ".")
                continue
            }
            let brackets = BracketDepth(value: line)
            if brackets.balanced {
                try assign(line, table: table, line: lineNumber)
            } else {
                pending = line
                pendingLine = lineNumber
                pendingBrackets = brackets
            }
        }
        if !pending.isEmpty { throw TOMLSyntaxError(line: pendingLine, message: "array not closed with ']'") }
    }

    private mutating func assign(_ line: String, table: String, line lineNumber: Int) throws(TOMLSyntaxError) {
        guard let equals = TOMLDocument.firstUnquoted("=", in: line) else {
            throw TOMLSyntaxError(line: lineNumber, message: "expected 'key = value'")
        }
        let keyText = String(line[..<equals]).trimmingWhitespace()
        let valueText = String(line[line.index(after: equals)...]).trimmingWhitespace()
        let path = try TOMLDocument.keyPath(keyText, line: lineNumber)
        let key = (table.isEmpty ? [] : [table]) + path
        let dotted = key.joined(separator: ".")
        guard values[dotted] == nil else {
            throw TOMLSyntaxError(line: lineNumber, message: "key '\(dotted)' defined twice")
        }
        var scanner = ValueScanner(text: Array(valueText.unicodeScalars), line: lineNumber)
        let value = try scanner.value()
        try scanner.expectEnd()
        values[dotted] = value
        lines[dotted] = lineNumber
    }

    static func keyPath(_ text: String, line: Int) throws(TOMLSyntaxError) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingWhitespace())
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingWhitespace())
        for part in parts where part.isEmpty || part.contains(where: { $0 == " " || $0 == "\t" }) {
            throw TOMLSyntaxError(line: line, message: "invalid key '\(text)'")
        }
        return parts
    }

    static func strippingComment(_ line: String) -> String {
        guard let hash = firstUnquoted("#", in: line) else { return line }
        return String(line[..<hash])
    }

    static func firstUnquoted(_ target: Character, in line: String) -> String.Index? {
        var quote: Character?
        var escaped = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == target {
                return index
            }
            index = line.index(after: index)
        }
        return nil
    }
}

/// The bracket depth of a value written over one or more lines: the lines after the first are
/// scanned as they come (a quote may go on from one line to the next), so an array of n lines
/// costs n line scans, not n².
struct BracketDepth {
    private var depth = 0
    private var quote: Character?

    /// Nothing scanned yet.
    init() {}

    /// The depth after the value of `line`, the text after its first unquoted `=`; a line
    /// without one is balanced (its own error is reported when it is assigned).
    init(value line: String) {
        guard let equals = TOMLDocument.firstUnquoted("=", in: line) else { return }
        scan(line[line.index(after: equals)...])
    }

    /// True when every `[` outside quotes has been closed.
    var balanced: Bool { depth <= 0 }

    /// Goes on with `text`, the next line of the value.
    mutating func scan(_ text: Substring) {
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" {
                depth += 1
            } else if character == "]" {
                depth -= 1
            }
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
