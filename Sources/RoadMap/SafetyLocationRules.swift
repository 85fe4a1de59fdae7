/// Where a safety-location rule applies.
public enum SafetyRuleScope: Hashable, Sendable, CustomStringConvertible {
    /// In every country (a type off everywhere, e.g. restriction cameras).
    case everywhere
    /// In one country.
    case country(Country)
    /// In one region (state, Land) of a country.
    case region(Region)

    public var description: String {
        switch self {
        case .everywhere: "everywhere"
        case .country(let country): "country \(country.alpha2)"
        case .region(let region): "region \(region.code)"
        }
    }
}

/// One row of the legal filter: whether a driver may be warned of safety locations (of one type,
/// or of every type) that lie within a scope, and the legal source that says so.
public struct SafetyLocationRule: Hashable, Sendable {
    /// Where the row applies.
    public var scope: SafetyRuleScope
    /// The safety-location type it is about; `nil` for every safety-location type.
    public var type: RoadObjectType?
    /// Whether warning is allowed.
    public var allowed: Bool
    /// The law or policy behind the row (e.g. `StVO § 23 Abs. 1c`).
    public var source: String

    /// Creates a row.
    public init(scope: SafetyRuleScope, type: RoadObjectType?, allowed: Bool, source: String) {
        self.scope = scope
        self.type = type
        self.allowed = allowed
        self.source = source
    }
}

/// The legal filter for safety locations: which may be reported, by the country and region where
/// each one lies (not where the vehicle is) and by its type.
///
/// The most specific row decides: the region's row for the type, then the region's row for every
/// type, then the country's for the type, then the country's for every type, then the row for the
/// type everywhere, then the row for every type everywhere; without any, the location is allowed.
/// Objects that are not safety locations (tunnels, user-defined objects …) are always allowed.
public struct SafetyLocationRules: Hashable, Sendable {
    private struct Key: Hashable {
        var scope: SafetyRuleScope
        var type: RoadObjectType?
    }

    /// The rows, in the order given.
    public let rules: [SafetyLocationRule]
    private let ruleByKey: [Key: SafetyLocationRule]

    /// A filter of `rules`; a later row for the same scope and type replaces an earlier one.
    public init(rules: [SafetyLocationRule]) {
        self.rules = rules
        var byKey: [Key: SafetyLocationRule] = [:]
        for rule in rules { byKey[Key(scope: rule.scope, type: rule.type)] = rule }
        ruleByKey = byKey
    }

    /// No rows: every safety location is allowed.
    public static let allowingAll = SafetyLocationRules(rules: [])

    /// The row that decides for a `type` object lying in `country` and `region` (either `nil`
    /// where unknown), `nil` when no row applies (allowed).
    public func decidingRule(for type: RoadObjectType, country: Country?, region: Region?) -> SafetyLocationRule? {
        guard type.isSafetyLocation else { return nil }
        var keys: [Key] = []
        if let region {
            keys += [Key(scope: .region(region), type: type), Key(scope: .region(region), type: nil)]
        }
        if let country = country ?? region?.country {
            keys += [Key(scope: .country(country), type: type), Key(scope: .country(country), type: nil)]
        }
        keys += [Key(scope: .everywhere, type: type), Key(scope: .everywhere, type: nil)]
        return keys.lazy.compactMap { ruleByKey[$0] }.first
    }

    /// Whether a `type` object lying in `country` and `region` may be reported.
    public func allows(_ type: RoadObjectType, country: Country?, region: Region?) -> Bool {
        decidingRule(for: type, country: country, region: region)?.allowed ?? true
    }
}
