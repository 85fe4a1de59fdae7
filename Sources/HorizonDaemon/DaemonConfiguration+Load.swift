import DaemonConfiguration
import Foundation
import RoadMap

extension DaemonConfiguration {
    /// Reads and checks the configuration file at `path`, and the safety-location rules it names.
    /// - Throws: ``ConfigurationError`` naming the file (and line and key) when it cannot be read
    ///   or is invalid.
    public static func load(path: String) throws(ConfigurationError) -> DaemonConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(
                file: path, key: nil, line: nil,
                problem: "cannot read the file (missing, unreadable or not UTF-8)")
        }
        var configuration = try DaemonConfiguration(toml: text, source: path)
        if let rules = configuration.safetyRulesPath {
            guard let table = try? String(contentsOfFile: rules, encoding: .utf8) else {
                throw ConfigurationError(
                    file: path, key: "safety_locations.rules", line: nil,
                    problem: "cannot read the safety-location rules \(rules) (missing, unreadable or not UTF-8)")
            }
            configuration.safetyLocationRules = try SafetyLocationRules(toml: table, source: rules)
        }
        return configuration
    }
}
