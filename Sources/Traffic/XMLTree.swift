import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element read whole: local name (namespace prefix dropped), attributes by local name,
/// child elements and text. Small documents only (a traffic feed), read with Foundation's
/// `XMLParser`; no entity or external DTD is loaded.
struct XMLTree: Sendable {
    /// The element's name without its namespace prefix (`sit:situationRecord` → `situationRecord`).
    var name: String
    /// Attributes by name without prefix (`xsi:type` → `type`); values as written.
    var attributes: [String: String] = [:]
    /// Child elements in document order.
    var children: [XMLTree] = []
    /// The element's own text, trimmed.
    var text = ""

    /// Why a document could not be read.
    struct ReadError: Error {
        var line: Int
        var column: Int
        var reason: String
    }

    /// Reads `data` as an XML document; its root element.
    static func read(_ data: Data) throws(ReadError) -> XMLTree {
        // FoundationXML traps on an element name that is not valid UTF-8 (Swift 6.3.1, found by
        // Tools/fuzz traffic): such a document is refused before it reaches the parser.
        try requireUTF8(data)
        let parser = XMLParser(data: paddingEmptyProcessingInstructions(data))
        parser.shouldResolveExternalEntities = false
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ReadError(
                line: parser.lineNumber, column: parser.columnNumber,
                // Foundation on Linux reports one error code for every syntax error: say where.
                reason: builder.failure ?? "not well-formed XML"
                    + (builder.stack.last.map { ", inside <\($0.name)>" } ?? ""))
        }
        return root
    }

    /// `data` with a space before the `?>` of every processing instruction that has no data
    /// (`<?name?>`), outside comments and CDATA sections. For such an instruction libxml2 hands
    /// FoundationXML a null data pointer, which it reads as a C string: a crash (Swift 6.3.1, found
    /// by Tools/fuzz traffic with `<?x?><mc:m.ess`). With the space libxml2 reads empty data. A
    /// column in an error message past such an instruction counts the space.
    static func paddingEmptyProcessingInstructions(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        func starts(_ pattern: StaticString, at index: Int) -> Bool {
            let count = pattern.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return pattern.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
        }
        /// The index just past the first `end` at or after `index` (the end of the bytes if none).
        func skip(to end: StaticString, from index: Int) -> Int {
            var index = index
            while index < bytes.count, !starts(end, at: index) { index += 1 }
            return min(index + end.utf8CodeUnitCount, bytes.count)
        }
        var padAt: [Int] = []
        var index = 0
        while index < bytes.count {
            if starts("<!--", at: index) {
                index = skip(to: "-->", from: index + 4)
            } else if starts("<![CDATA[", at: index) {
                index = skip(to: "]]>", from: index + 9)
            } else if starts("<?", at: index) {
                var end = index + 2
                while end < bytes.count, bytes[end] != UInt8(ascii: "?"), !Self.isBlank(bytes[end]) { end += 1 }
                if end > index + 2, starts("?>", at: end) { padAt.append(end) }
                // On from just past `<?`, not past the name: `<?<?x?>` holds one at its third byte
                // (libxml2 reads on past the bad first one; found by Tools/fuzz traffic).
                index += 2
            } else {
                index += 1
            }
        }
        guard !padAt.isEmpty else { return data }
        var padded: [UInt8] = []
        padded.reserveCapacity(bytes.count + padAt.count)
        var copied = 0
        for position in padAt {
            padded += bytes[copied..<position]
            padded.append(UInt8(ascii: " "))
            copied = position
        }
        padded += bytes[copied...]
        return Data(padded)
    }

    /// XML's white space: space, tab, line feed, carriage return.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Throws at the first byte of `data` that is not part of a valid UTF-8 sequence.
    private static func requireUTF8(_ data: Data) throws(ReadError) {
        var decoder = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0, line = 1, lineStart = 0
        while true {
            switch decoder.parseScalar(from: &bytes) {
            case .valid(let scalar):
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = offset + 1
                }
                offset += scalar.count
            case .emptyInput:
                return
            case .error:
                throw ReadError(
                    line: line, column: offset - lineStart + 1,
                    reason: "byte \(offset) is not UTF-8 (DATEX II documents are UTF-8 text)")
            }
        }
    }

    /// The local part of a qualified name or an `xsi:type` value.
    static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// The first child named `name`.
    func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// The children named `name`.
    func children(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The first element named `name` at any depth below this one, depth first in document order.
    func descendant(_ name: String) -> XMLTree? {
        for child in children {
            if child.name == name { return child }
            if let found = child.descendant(name) { return found }
        }
        return nil
    }

    /// The text of the first element along `path` (child names), `nil` when one is missing.
    func text(_ path: String...) -> String? {
        var node = self
        for name in path {
            guard let next = node.child(name) else { return nil }
            node = next
        }
        return node.text
    }

    /// The local part of the element's `xsi:type`, if it has one.
    var type: String? { attributes["type"].map(Self.localName) }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var root: XMLTree?
        var failure: String?
        /// Deeper than any real feed: a document nesting further is refused, not recursed into.
        let maximumDepth = 64

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            guard stack.count < maximumDepth else {
                failure = "elements nested deeper than \(maximumDepth)"
                parser.abortParsing()
                return
            }
            var node = XMLTree(name: XMLTree.localName(elementName))
            for (key, value) in attributes { node.attributes[XMLTree.localName(key)] = value }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard var node = stack.popLast() else { return }
            node.text = node.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
        }
    }
}
