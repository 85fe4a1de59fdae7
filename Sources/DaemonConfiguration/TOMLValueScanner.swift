import Foundation

/// Reads one TOML value from the text after `=`.
struct ValueScanner {
    let text: [Unicode.Scalar]
    let line: Int
    var position = 0

    init(text: [Unicode.Scalar], line: Int) {
        self.text = text
        self.line = line
    }

    mutating func value() throws(TOMLSyntaxError) -> TOMLValue {
        skipSpace()
        guard position < text.count else { throw error("missing value") }
        switch text[position] {
        case "\"": return .string(try basicString())
        case "'": return .string(try literalString())
        case "[": return .array(try array())
        case "{": throw error("inline tables are not supported; use a [table] section")
        default: return try bare()
        }
    }

    mutating func expectEnd() throws(TOMLSyntaxError) {
        skipSpace()
        if position < text.count {
            throw error("unexpected text after the value: '\(String(String.UnicodeScalarView(text[position...])))'")
        }
    }

    private mutating func skipSpace() {
        while position < text.count, text[position] == " " || text[position] == "\t" { position += 1 }
    }

    private func error(_ message: String) -> TOMLSyntaxError { TOMLSyntaxError(line: line, message: message) }

    private mutating func basicString() throws(TOMLSyntaxError) -> String {
        if position + 2 < text.count, text[position + 1] == "\"", text[position + 2] == "\"" {
            throw error("multi-line strings are not supported")
        }
        position += 1
        var result = String.UnicodeScalarView()
        while position < text.count {
            let scalar = text[position]
            position += 1
            if scalar == "\"" { return String(result) }
            if scalar == "\\" {
                guard position < text.count else { break }
                let escape = text[position]
                position += 1
                switch escape {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\\": result.append("\\")
                case "\"": result.append("\"")
                case "u", "U":
                    let count = escape == "u" ? 4 : 8
                    guard position + count <= text.count,
                        let code = UInt32(
                            String(String.UnicodeScalarView(text[position..<position + count])), radix: 16),
                        let decoded = Unicode.Scalar(code)
                    else { throw error("invalid \\\(escape) escape") }
                    result.append(decoded)
                    position += count
                default: throw error("invalid escape '\\\(escape)' in a string")
                }
            } else {
                result.append(scalar)
            }
        }
        throw error("string not closed with '\"'")
    }

    private mutating func literalString() throws(TOMLSyntaxError) -> String {
        position += 1
        var result = String.UnicodeScalarView()
        while position < text.count {
            let scalar = text[position]
            position += 1
            if scalar == "'" { return String(result) }
            result.append(scalar)
        }
        throw error("string not closed with \"'\"")
    }

    private mutating func array() throws(TOMLSyntaxError) -> [TOMLValue] {
        position += 1
        var result: [TOMLValue] = []
        while true {
            skipSpace()
            guard position < text.count else { throw error("array not closed with ']'") }
            if text[position] == "]" { position += 1; return result }
            result.append(try value())
            skipSpace()
            guard position < text.count else { throw error("array not closed with ']'") }
            if text[position] == "," {
                position += 1
            } else if text[position] != "]" {
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func bare() throws(TOMLSyntaxError) -> TOMLValue {
        var token = ""
        while position < text.count, text[position] != ",", text[position] != "]", text[position] != " ",
            text[position] != "\t"
        {
            token.unicodeScalars.append(text[position])
            position += 1
        }
        switch token {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        let digits = token.replacingOccurrences(of: "_", with: "")
        if digits.hasPrefix("0x"), let value = Int64(digits.dropFirst(2), radix: 16) { return .integer(value) }
        if digits.hasPrefix("0o"), let value = Int64(digits.dropFirst(2), radix: 8) { return .integer(value) }
        if digits.hasPrefix("0b"), let value = Int64(digits.dropFirst(2), radix: 2) { return .integer(value) }
        if let value = Int64(digits) { return .integer(value) }
        if let value = Double(digits), digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return .float(value)
        }
        if token.isEmpty { throw error("missing value") }
        throw error("'\(token)' is not a TOML value (strings need quotes)")
    }
}
