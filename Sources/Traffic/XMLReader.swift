import Foundation

/// Reads an XML 1.0 document, UTF-8 encoded, into an `XMLTree`.
///
/// Strict where XML is: one root element, end tags that match, quoted attributes that appear
/// once, only XML's five entities and character references, no control characters. Nothing is
/// loaded from outside the document: a document type declaration is refused, so no entity can
/// be declared. Comments and processing instructions are skipped, CDATA sections are text.
/// Namespaces are not resolved (`XMLTree` keeps local names).
///
/// It replaces Foundation's `XMLParser` (libxml2), which on Linux trapped on a processing
/// instruction without data and on an element name that is not UTF-8, and leaked a few hundred
/// bytes for every malformed document (Swift 6.3.1, all three found by `Tools/fuzz traffic`).
struct XMLReader {
    /// Deeper than any real feed: a document nesting further is refused.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    /// Where the document's content starts (after a byte order mark): the only place an XML
    /// declaration may stand.
    private var documentStart = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads `data`; its root element, or where and why it is not a well-formed document.
    static func read(_ data: Data) throws(XMLTree.ReadError) -> XMLTree {
        var reader = XMLReader(bytes: [UInt8](data))
        try reader.requireCharacters()
        return try reader.document()
    }

    // MARK: - Document structure

    private mutating func document() throws(XMLTree.ReadError) -> XMLTree {
        if starts("\u{FEFF}") { index += 3 }
        documentStart = index
        try skipMiscellany()
        guard index < bytes.count else { throw failure("the document has no root element") }
        guard bytes[index] == UInt8(ascii: "<") else { throw failure("expected the root element, \(found)") }
        let root = try element(depth: 1)
        try skipMiscellany()
        guard index == bytes.count else {
            throw failure("content after the end of the root element <\(root.name)>: \(found)")
        }
        return root
    }

    /// White space, comments and processing instructions, as may stand around the root element.
    private mutating func skipMiscellany() throws(XMLTree.ReadError) {
        while true {
            skipSpace()
            if starts("<!--") {
                try skipComment()
            } else if starts("<?") {
                try skipProcessingInstruction()
            } else if starts("<!DOCTYPE") {
                throw failure(
                    "a document type declaration is not accepted (a traffic feed has none, and no entity or "
                        + "external file is ever loaded)")
            } else {
                return
            }
        }
    }

    /// The element whose `<` is at `index`, with everything inside it.
    private mutating func element(depth: Int) throws(XMLTree.ReadError) -> XMLTree {
        let start = index
        index += 1
        let qualifiedName = try name(of: "an element")
        guard depth <= Self.maximumDepth else {
            throw failure("elements nested deeper than \(Self.maximumDepth)", at: start)
        }
        var node = XMLTree(name: XMLTree.localName(qualifiedName))
        var written: Set<String> = []
        while true {
            let spaced = skipSpace()
            guard index < bytes.count else { throw failure("the document ends inside the tag <\(qualifiedName)>") }
            if starts("/>") {
                index += 2
                return node
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            guard spaced else { throw failure("expected white space, '>' or '/>' in <\(qualifiedName)>, \(found)") }
            let attributeStart = index
            let attribute = try name(of: "an attribute")
            skipSpace()
            try expect("=", in: "attribute \(attribute) of <\(qualifiedName)>")
            skipSpace()
            let value = try quotedValue(of: attribute)
            guard written.insert(attribute).inserted else {
                throw failure("attribute \(attribute) appears twice in <\(qualifiedName)>", at: attributeStart)
            }
            node.attributes[XMLTree.localName(attribute)] = value
        }
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("the document ends inside <\(qualifiedName)>") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") {
                text += try reference()
            } else if byte != UInt8(ascii: "<") {
                if starts("]]>") { throw failure("']]>' outside a CDATA section") }
                text.append(byte)
                index += 1
            } else if starts("</") {
                let endStart = index
                index += 2
                let end = try name(of: "an end tag")
                guard end == qualifiedName else {
                    throw failure("</\(end)> closes <\(qualifiedName)>", at: endStart)
                }
                skipSpace()
                try expect(">", in: "</\(end)>")
                break
            } else if starts("<!--") {
                try skipComment()
            } else if starts("<![CDATA[") {
                text += try cdataSection()
            } else if starts("<?") {
                try skipProcessingInstruction()
            } else if starts("<!") {
                throw failure("a declaration inside <\(qualifiedName)> is not XML content")
            } else {
                node.children.append(try element(depth: depth + 1))
            }
        }
        node.text = String(decoding: Self.normalizingLineEnds(text), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return node
    }

    // MARK: - Names, values, references

    /// An XML name at `index` (letters, digits, `_`, `:`, `-`, `.` and any non-ASCII character,
    /// not starting with a digit, `-` or `.`).
    private mutating func name(of what: String) throws(XMLTree.ReadError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index], first: index == start) { index += 1 }
        guard index > start else { throw failure("expected the name of \(what), \(found)") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    /// A quoted attribute value, references replaced and white space characters made spaces.
    private mutating func quotedValue(of attribute: String) throws(XMLTree.ReadError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw failure("the value of attribute \(attribute) is not in quotes, \(found)")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("the document ends inside attribute \(attribute)") }
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return String(decoding: value, as: UTF8.self)
            } else if byte == UInt8(ascii: "<") {
                throw failure("'<' inside the value of attribute \(attribute)")
            } else if byte == UInt8(ascii: "&") {
                value += try reference()
            } else {
                value.append(Self.isSpace(byte) ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
    }

    /// The UTF-8 bytes of the entity or character reference at `index` (`&lt;`, `&#233;`, `&#xE9;`).
    private mutating func reference() throws(XMLTree.ReadError) -> [UInt8] {
        let start = index
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw failure("'&' that starts no reference (write '&amp;' for the character)")
        }
        let body = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard body.hasPrefix("#") else {
            throw failure("unknown entity &\(body); (only XML's five and character references are read)", at: start)
        }
        let hexadecimal = body.hasPrefix("#x")
        let digits = body.dropFirst(hexadecimal ? 2 : 1)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
            let code = UInt32(digits, radix: hexadecimal ? 16 : 10),
            Self.isCharacter(code), let scalar = Unicode.Scalar(code)
        else { throw failure("&\(body); is no XML character", at: start) }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: - Skipped and literal sections

    private mutating func skipComment() throws(XMLTree.ReadError) {
        let start = index
        index += 4
        guard let end = firstIndex(of: "-->") else { throw failure("comment not closed with '-->'", at: start) }
        index = end + 3
    }

    private mutating func cdataSection() throws(XMLTree.ReadError) -> ArraySlice<UInt8> {
        let start = index
        index += 9
        guard let end = firstIndex(of: "]]>") else { throw failure("CDATA section not closed with ']]>'", at: start) }
        defer { index = end + 3 }
        return bytes[start + 9..<end]
    }

    /// `<?target data?>`; the XML declaration (`<?xml …?>`) only at the start of the document.
    private mutating func skipProcessingInstruction() throws(XMLTree.ReadError) {
        let start = index
        index += 2
        let target = try name(of: "a processing instruction")
        if target.lowercased() == "xml", start != documentStart {
            throw failure("the XML declaration <?xml …?> stands only at the start of the document", at: start)
        }
        guard let end = firstIndex(of: "?>") else {
            throw failure("processing instruction <?\(target) not closed with '?>'", at: start)
        }
        index = end + 2
    }

    // MARK: - Bytes

    /// Throws at the first byte that is not part of a valid UTF-8 sequence, or at a character XML
    /// does not allow (controls other than tab, line feed and carriage return; U+FFFE, U+FFFF).
    private func requireCharacters() throws(XMLTree.ReadError) {
        var decoder = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                guard Self.isCharacter(scalar.value) else {
                    let code = String(scalar.value, radix: 16, uppercase: true)
                    throw failure(
                        "character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) is not allowed in XML",
                        at: offset)
                }
                offset += encoded.count
            case .emptyInput:
                return
            case .error:
                throw failure("byte \(offset) is not UTF-8 (DATEX II documents are UTF-8 text)", at: offset)
            }
        }
    }

    /// XML 1.0's `Char`.
    private static func isCharacter(_ code: UInt32) -> Bool {
        switch code {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Text with XML's line ends: a carriage return, alone or before a line feed, is a line feed.
    private static func normalizingLineEnds(_ text: [UInt8]) -> [UInt8] {
        guard text.contains(0x0D) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        for (offset, byte) in text.enumerated()
        where !(byte == 0x0D && offset + 1 < text.count && text[offset + 1] == 0x0A) {
            result.append(byte == 0x0D ? 0x0A : byte)
        }
        return result
    }

    /// Skips white space; whether there was any.
    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func expect(_ literal: StaticString, in context: String) throws(XMLTree.ReadError) {
        guard starts(literal) else { throw failure("expected '\(literal)' in \(context), \(found)") }
        index += literal.utf8CodeUnitCount
    }

    private func starts(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
    }

    /// The index of the next `literal` at or after `index`.
    private func firstIndex(of literal: StaticString) -> Int? {
        literal.withUTF8Buffer { pattern in
            var position = index
            while position + pattern.count <= bytes.count {
                if bytes[position] == pattern[0], bytes[position..<position + pattern.count].elementsEqual(pattern) {
                    return position
                }
                position += 1
            }
            return nil
        }
    }

    /// What stands at `index`, for a message: the character in quotes, or the end.
    private var found: String {
        guard index < bytes.count else { return "found the end of the document" }
        var decoder = Unicode.UTF8.ForwardParser()
        var iterator = bytes[index...].makeIterator()
        guard case .valid(let encoded) = decoder.parseScalar(from: &iterator) else {
            return "found byte \(bytes[index])"
        }
        let scalar = Unicode.UTF8.decode(encoded)
        return scalar.properties.isWhitespace || scalar.value < 0x20
            ? "found U+\(String(scalar.value, radix: 16, uppercase: true))" : "found '\(scalar)'"
    }

    /// An error at byte `offset` (the current one unless given), with its 1-based line and column
    /// (in bytes).
    private func failure(_ reason: String, at offset: Int? = nil) -> XMLTree.ReadError {
        let offset = min(offset ?? index, bytes.count)
        let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = 1 + bytes[..<offset].count { $0 == 0x0A }
        return XMLTree.ReadError(line: line, column: offset - lineStart + 1, reason: reason)
    }
}
