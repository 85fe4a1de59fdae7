import Foundation

/// An XML element read whole: local name (namespace prefix dropped), attributes by local name,
/// child elements and text. Small documents only (a traffic feed), read by `XMLReader`; no
/// entity or external DTD is loaded.
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
}
