import RoadMap

/// The speed limits of a way per direction, read from its `maxspeed*` tags.
///
/// `maxspeed:forward` / `maxspeed:backward` override `maxspeed`; a `maxspeed:conditional`
/// (or per-direction conditional) makes the limit ``SpeedLimitKind/timeDependent`` with the
/// unconditional value as its base. Legal-default references (`FI:urban`) are returned in
/// ``forwardReference`` / ``backwardReference`` for resolution against the legal defaults table.
public struct DirectionalSpeedLimits: Hashable, Sendable {
    /// The limit in the way's drawing direction.
    public var forward: SpeedLimit
    /// The limit against the way's drawing direction.
    public var backward: SpeedLimit
    /// A legal-default reference for the forward direction (e.g. `FI:urban`), if tagged so.
    public var forwardReference: MaxspeedValue?
    /// A legal-default reference for the backward direction, if tagged so.
    public var backwardReference: MaxspeedValue?
    /// How many `maxspeed*` tag values could not be parsed (skipped, counted by the importer).
    public var malformedValueCount: Int

    /// Reads the limits from the tags of a way.
    public init(tags: [String: String]) {
        var malformed = 0
        func parsed(_ key: String) -> MaxspeedValue? {
            guard let text = tags[key] else { return nil }
            guard let value = MaxspeedValue(parsing: text) else {
                malformed += 1
                return nil
            }
            return value
        }
        let both = parsed("maxspeed")
        let forwardValue = parsed("maxspeed:forward") ?? both
        let backwardValue = parsed("maxspeed:backward") ?? both
        let conditionalBoth = tags["maxspeed:conditional"] != nil
        let forwardConditional = conditionalBoth || tags["maxspeed:forward:conditional"] != nil
        let backwardConditional = conditionalBoth || tags["maxspeed:backward:conditional"] != nil

        forward = DirectionalSpeedLimits.limit(forwardValue, conditional: forwardConditional)
        backward = DirectionalSpeedLimits.limit(backwardValue, conditional: backwardConditional)
        if case .legalDefault = forwardValue { forwardReference = forwardValue } else { forwardReference = nil }
        if case .legalDefault = backwardValue { backwardReference = backwardValue } else { backwardReference = nil }
        malformedValueCount = malformed
    }

    /// Turns one parsed value into a speed limit; legal-default references stay unknown here
    /// (resolved later with the legal defaults table, giving an implicit limit).
    static func limit(_ value: MaxspeedValue?, conditional: Bool) -> SpeedLimit {
        let signedKind: SpeedLimitKind = conditional ? .timeDependent : .explicit
        switch value {
        case .kilometresPerHour(let kmh)?:
            return SpeedLimit(value: .kilometresPerHour(kmh), kind: signedKind)
        case .unlimited?:
            return SpeedLimit(value: .unlimited, kind: signedKind)
        case .walk?:
            return SpeedLimit(value: .kilometresPerHour(MaxspeedValue.walkingPaceKilometresPerHour), kind: signedKind)
        case .signals?:
            return SpeedLimit(value: .unknown, kind: .timeDependent)
        case .legalDefault?, nil:
            return conditional ? SpeedLimit(value: .unknown, kind: .timeDependent) : .unknown
        }
    }
}
