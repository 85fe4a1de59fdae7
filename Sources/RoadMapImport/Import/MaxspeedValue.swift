import Foundation
import RoadMap

/// One parsed OSM `maxspeed` value (the text of a `maxspeed`, `maxspeed:forward`, … tag).
///
/// Units are normalised to km/h: `50`, `50 km/h`, `50 kmh`, `50 kph`, `30 mph`, `10 knots`.
/// Special values: `none` (no limit), `walk` (walking pace), `signals` (variable signs), and
/// legal-default references such as `FI:urban` or `DE:zone:30` that must be resolved with the
/// legal default speeds table.
public enum MaxspeedValue: Hashable, Sendable {
    /// A numeric limit in km/h.
    case kilometresPerHour(Double)
    /// `maxspeed=none`: no limit.
    case unlimited
    /// `maxspeed=walk`: walking pace.
    case walk
    /// `maxspeed=signals`: set by variable message signs; the value is not known offline.
    case signals
    /// A legal-default reference like `FI:urban`: `country` is `FI`, `zone` is `urban`.
    case legalDefault(country: String, zone: String)

    /// The speed used for ``walk``, in km/h (typical walking pace used by routing engines).
    public static let walkingPaceKilometresPerHour = 6.0

    /// Kilometres per hour in one mile per hour.
    static let kilometresPerMile = 1.609344
    /// Kilometres per hour in one knot.
    static let kilometresPerNauticalMile = 1.852

    /// Parses the text of a maxspeed tag; returns `nil` for malformed values (the importer
    /// skips and counts those).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "none": self = .unlimited; return
        case "walk": self = .walk; return
        case "signals": self = .signals; return
        default: break
        }
        if let reference = MaxspeedValue.legalDefaultReference(trimmed) {
            self = reference
            return
        }
        guard let kmh = MaxspeedValue.numericKilometresPerHour(trimmed) else { return nil }
        self = .kilometresPerHour(kmh)
    }

    /// Parses `NUMBER[ ]UNIT`, returning km/h, or `nil` when malformed or not positive.
    static func numericKilometresPerHour(_ text: String) -> Double? {
        let digits = text.prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty, let number = Double(digits), number > 0, number.isFinite else {
            return nil
        }
        let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        switch unit {
        case "", "km/h", "kmh", "kph", "km/t": return number
        case "mph": return number * kilometresPerMile
        case "knots", "kn", "knot": return number * kilometresPerNauticalMile
        default: return nil
        }
    }

    /// Recognises `CC:zone` or `CC-REGION:zone` legal-default references.
    static func legalDefaultReference(_ text: String) -> MaxspeedValue? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let country = text[..<colon]
        let zone = text[text.index(after: colon)...]
        let countryCode = country.prefix(2)
        guard countryCode.count == 2, countryCode.allSatisfy({ $0.isASCII && $0.isUppercase }),
            country.count == 2 || country.dropFirst(2).first == "-",
            !zone.isEmpty, zone.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ":" || $0 == "_") })
        else { return nil }
        return .legalDefault(country: String(country), zone: String(zone))
    }
}
