import ArgumentParser
import DaemonConfiguration
import Foundation
import Horizon
import RoadMap

/// Reads the `--safety-rules` option of the commands that take one.
enum SafetyLocationRulesOption {
    /// The rules in the TOML file at `path`, or the shipped table when `path` is `nil`.
    ///
    /// - Throws: a `ValidationError` naming the file when it cannot be read, or the table's
    ///   error (file, line and key) when it is not a valid rules table.
    static func load(_ path: String?) throws -> SafetyLocationRules {
        guard let path else { return try SafetyLocationRules.shippedDefault() }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("--safety-rules: cannot read \(path) (missing, unreadable or not UTF-8)")
        }
        return try SafetyLocationRules(toml: text, source: path)
    }
}

/// What the legal filter makes of a map's safety locations, per country, as `adasis map info`
/// prints it: `FR: 2 fixed_speed_camera as danger zones`, `DE: 2 fixed_speed_camera not reported`.
/// Decided by the country rows (a region row may decide otherwise for part of a country).
enum LegalFilterSummary {
    /// One line per country with safety locations; `names` gives each numeric code's alpha-2.
    static func lines(
        roadObjects: [UInt16: [RoadObjectType: Int]], names: [UInt16: String], rules: SafetyLocationRules
    ) -> [String] {
        var result: [String] = []
        for code in roadObjects.keys.sorted() {
            let counts = roadObjects[code]!.filter { $0.key.isSafetyLocation && $0.key != .dangerZone }
            guard !counts.isEmpty else { continue }
            let country = code == 0 ? nil : try? Country(numericCode: code)
            let zones = rules.typesBecomingDangerZones(country: country, region: nil)
            var reported: [String] = [], asZones: [String] = [], dropped: [String] = []
            for type in counts.keys.sorted() {
                let text = "\(counts[type]!) \(type.rawValue)"
                if zones.contains(type) {
                    asZones.append(text)
                } else if rules.allows(type, country: country, region: nil) {
                    reported.append(text)
                } else {
                    dropped.append(text)
                }
            }
            var parts: [String] = []
            if !reported.isEmpty { parts.append(reported.joined(separator: ", ") + " reported") }
            if !asZones.isEmpty { parts.append(asZones.joined(separator: ", ") + " as danger zones") }
            if !dropped.isEmpty { parts.append(dropped.joined(separator: ", ") + " not reported") }
            let name = code == 0 ? "unknown" : names[code] ?? "\(code)"
            result.append("\(name): " + parts.joined(separator: "; "))
        }
        return result
    }
}
