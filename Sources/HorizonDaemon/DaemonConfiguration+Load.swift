import DaemonConfiguration
import Foundation

extension DaemonConfiguration {
    /// Reads and checks the configuration file at `path`.
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
        return try DaemonConfiguration(toml: text, source: path)
    }
}
