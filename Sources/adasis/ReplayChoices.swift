import ADASISv2
import ArgumentParser

// The name table of ADASISv2 as command-line values: the raw values (the configuration keys)
// are what `--preset`, `--profiles` and `--offset-policy` accept.

extension MessageSelection.Preset: ExpressibleByArgument {}
extension SelectableProfile: ExpressibleByArgument {}
extension OffsetPolicy: ExpressibleByArgument {}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// Every value's name, comma-separated, in declaration order (for help texts).
    static var valueList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

extension SelectableProfile {
    /// The profiles of a comma-separated list (`curvature,link_identifier`).
    /// - Throws: `ValidationError` naming the first name that is not a profile type.
    static func list(_ text: String) throws -> [SelectableProfile] {
        try text.split(separator: ",").map { name in
            guard let profile = SelectableProfile(rawValue: String(name)) else {
                throw ValidationError("'\(name)' is not a profile type; use \(valueList)")
            }
            return profile
        }
    }
}
