import Foundation
import RoadMap

extension SafetyLocationRules {
    /// The keys a row may hold besides the type names.
    static let rowKeys = ["safety_locations", "source"]

    /// Reads a rules table from TOML text (`Data/safety-location-rules.toml` documents the format);
    /// `source` names the file in errors.
    ///
    /// - Throws: ``ConfigurationError`` with the file, line and key: a syntax error, a table other
    ///   than `[everywhere]`, `[country.CC]` or `[region.CC-SUB]`, an unknown country or region
    ///   code, a key that is no safety-location type, a value that is not true or false, a row
    ///   without `source`, or a `source` without rows.
    public init(toml text: String, source file: String) throws(ConfigurationError) {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw ConfigurationError(file: file, key: nil, line: error.line, problem: error.message)
        }
        var rows: [String: Row] = [:]
        let keys = document.values.keys.sorted { (document.lines[$0] ?? 0, $0) < (document.lines[$1] ?? 0, $1) }
        for key in keys {
            let line = document.lines[key] ?? 0
            func fail(_ problem: String) -> ConfigurationError {
                ConfigurationError(file: file, key: key, line: line, problem: problem)
            }
            let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let table = parts.dropLast().joined(separator: ".")
            let scope: SafetyRuleScope
            switch (parts.first, parts.count) {
            case ("everywhere", 2):
                scope = .everywhere
            case ("country", 3):
                guard parts[1].count == 2, let country = try? Country(alpha2: parts[1]) else {
                    throw fail(
                        "unknown country code '\(parts[1])'; use an ISO 3166-1 alpha-2 code such as DE, CH or FR")
                }
                scope = .country(country)
            case ("region", 3):
                guard let region = try? Region(code: parts[1]) else {
                    throw fail(
                        "unknown region code '\(parts[1])'; use an ISO 3166-2 code such as US-CA, DE-BY or AT-5")
                }
                scope = .region(region)
            default:
                throw fail(
                    "unknown key; rows are tables [everywhere], [country.CC] or [region.CC-SUB] holding "
                        + "safety_locations, a safety-location type or source")
            }
            var row = rows[table] ?? Row(scope: scope, line: line)
            let name = parts[parts.count - 1]
            let value = document.values[key]!
            if name == "source" {
                guard case .string(let text) = value, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw fail("expected the legal source of the row as a non-empty string, found \(value)")
                }
                row.source = text
            } else {
                let type: RoadObjectType?
                if name == "safety_locations" {
                    type = nil
                } else if let named = RoadObjectType(rawValue: name), named.isSafetyLocation {
                    type = named
                } else {
                    let types = RoadObjectType.allCases.filter(\.isSafetyLocation).map(\.rawValue)
                    let what =
                        RoadObjectType(rawValue: name) == nil
                        ? "unknown key" : "'\(name)' is not a safety-location type"
                    throw fail("\(what); a row holds safety_locations, \(types.joined(separator: ", ")) or source")
                }
                guard case .boolean(let allowed) = value else { throw fail("expected true or false, found \(value)") }
                row.types.append((type, allowed))
            }
            rows[table] = row
        }
        var rules: [SafetyLocationRule] = []
        for (table, row) in rows.sorted(by: { $0.value.line < $1.value.line }) {
            guard let source = row.source else {
                throw ConfigurationError(
                    file: file, key: table, line: row.line,
                    problem: "the row has no source; add source = \"the law or policy behind it\"")
            }
            guard !row.types.isEmpty else {
                throw ConfigurationError(
                    file: file, key: "\(table).source", line: row.line,
                    problem: "the row has a source but no rule; add safety_locations or a type = true or false")
            }
            for (type, allowed) in row.types {
                rules.append(SafetyLocationRule(scope: row.scope, type: type, allowed: allowed, source: source))
            }
        }
        self.init(rules: rules)
    }

    /// One table of the file while it is read.
    private struct Row {
        var scope: SafetyRuleScope
        var line: Int
        var types: [(RoadObjectType?, Bool)] = []
        var source: String?
    }
}
