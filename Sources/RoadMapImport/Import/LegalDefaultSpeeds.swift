import Foundation
import RoadMap

/// Why the legal default speeds table could not be loaded.
public enum LegalDefaultSpeedsError: Error, Hashable, Sendable {
    /// The bundled `legal_default_speeds.json` resource is missing from the RoadMap bundle.
    case resourceMissing
    /// The table is not valid JSON of the expected shape; `reason` is the decoder's message.
    case malformed(reason: String)
}

/// The legal default speed limits per country and road type (the OSM wiki table
/// "Default speed limits", bundled as `legal_default_speeds.json`).
///
/// Used to give an ``SpeedLimitKind/implicit`` limit to ways without `maxspeed`, or with a
/// reference such as `maxspeed=FI:urban` or `zone:traffic=FI:urban`.
public struct LegalDefaultSpeeds: Sendable {
    private struct Table: Decodable {
        struct RoadType: Decodable {
            var name: String?
            var tags: [String: String]
        }
        var speedLimitsByCountryCode: [String: [RoadType]]
    }

    /// Car speed limits (the `maxspeed` of each entry), by country code and road type name;
    /// the country's unnamed entry is stored under the empty name.
    private let limits: [String: [String: MaxspeedValue]]

    /// Loads the table bundled with the RoadMap module.
    public static func bundled() throws(LegalDefaultSpeedsError) -> LegalDefaultSpeeds {
        guard let url = Bundle.module.url(forResource: "legal_default_speeds", withExtension: "json") else {
            throw .resourceMissing
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .malformed(reason: "\(error)") }
        return try LegalDefaultSpeeds(json: data)
    }

    /// Parses a table in the `legal_default_speeds.json` format.
    public init(json: Data) throws(LegalDefaultSpeedsError) {
        let table: Table
        do { table = try JSONDecoder().decode(Table.self, from: json) } catch {
            throw .malformed(reason: "\(error)")
        }
        var limits: [String: [String: MaxspeedValue]] = [:]
        for (country, roadTypes) in table.speedLimitsByCountryCode {
            var byName: [String: MaxspeedValue] = [:]
            for roadType in roadTypes {
                // An entry without `maxspeed` means no general limit (e.g. German motorways).
                let value: MaxspeedValue
                if let text = roadType.tags["maxspeed"] {
                    guard let parsed = MaxspeedValue(parsing: text) else { continue }
                    value = parsed
                } else {
                    value = .unlimited
                }
                let name = roadType.name ?? ""
                if byName[name] == nil { byName[name] = value }
            }
            limits[country] = byName
        }
        self.limits = limits
    }

    /// The country codes the table covers (e.g. `FI`, `DE`, `US-CA`).
    public var countryCodes: [String] { limits.keys.sorted() }

    /// The implicit limit for the first of `roadTypes` (e.g. `["motorway"]`, `["urban"]`,
    /// `["living street"]`) that the country defines, falling back to the country's general
    /// default. Region codes (`US-CA`) fall back to the country (`US`). `nil` when the table
    /// does not know the country.
    public func implicitLimit(country: String, roadTypes: [String]) -> SpeedLimit? {
        var byName = limits[country]
        if byName == nil, let dash = country.firstIndex(of: "-") {
            byName = limits[String(country[..<dash])]
        }
        guard let byName else { return nil }
        let value = roadTypes.lazy.compactMap { byName[$0] }.first ?? byName[""]
        switch value {
        case .kilometresPerHour(let kmh)?: return SpeedLimit(value: .kilometresPerHour(kmh), kind: .implicit)
        case .unlimited?: return SpeedLimit(value: .unlimited, kind: .implicit)
        case .walk?:
            return SpeedLimit(value: .kilometresPerHour(MaxspeedValue.walkingPaceKilometresPerHour), kind: .implicit)
        case .signals?, .legalDefault?, nil: return nil
        }
    }

    /// The implicit limit for a legal-default reference such as `FI:urban`
    /// (from `maxspeed=` or `zone:traffic=`).
    public func implicitLimit(for reference: MaxspeedValue) -> SpeedLimit? {
        guard case .legalDefault(let country, let zone) = reference else { return nil }
        return implicitLimit(country: country, roadTypes: [zone.replacingOccurrences(of: "_", with: " ")])
    }
}
