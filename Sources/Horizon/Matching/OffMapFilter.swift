import Foundation

/// Whether the vehicle is on a road of the map at all: a two-state filter (on the map, off it)
/// run beside the HMM on the best candidate's emission of each fix.
///
/// The HMM only ranks the roads near a fix; with no better choice it matches a vehicle on a road
/// the map lacks to the nearest road there is — the other carriageway of a motorway, a street
/// 30 m away — and the horizon describes a road the vehicle is not on. Off the map no road is
/// expected near the fix: that hypothesis scores each fix as a road
/// ``MatcherConfiguration/offMapDistance`` σ away would, driven in the fix's heading, and the two
/// hypotheses swap with probability e^−``MatcherConfiguration/offMapSwitchPenalty`` per fix, so
/// leaving the map, and rejoining it, takes the evidence of a few fixes. Deterministic.
struct OffMapFilter: Sendable {
    /// Log odds of off the map against on it, within ±``bound``.
    private(set) var logOdds: Double
    /// How sure the filter may get either way: e^50 leaves every probability representable.
    private static let bound = 50.0

    /// A filter that starts on the map: as sure of it as the switching odds allow.
    init(_ configuration: MatcherConfiguration) {
        logOdds = -min(configuration.offMapSwitchPenalty, Self.bound)
    }

    /// Whether the vehicle is off the map, once a fix whose best candidate scores `bestEmission`
    /// (log, as ``CandidateSearch/emission(distance:sigma:linkBearing:fix:directionSettled:)``
    /// scores it, less any road penalty) is in.
    mutating func update(bestEmission: Double, _ configuration: MatcherConfiguration) -> Bool {
        let switching = exp(-configuration.offMapSwitchPenalty)
        let off = 1 / (1 + exp(-logOdds)), on = 1 / (1 + exp(logOdds))
        logOdds = log(off * (1 - switching) + on * switching) - log(on * (1 - switching) + off * switching)
        logOdds += Self.offEmission(configuration) - bestEmission
        logOdds = min(max(logOdds, -Self.bound), Self.bound)
        return logOdds > 0
    }

    /// The vehicle has left the map without this filter (no road within the search radius): it
    /// is as sure of off as the switching odds allow, so rejoining takes evidence too.
    mutating func leave(_ configuration: MatcherConfiguration) {
        logOdds = min(configuration.offMapSwitchPenalty, Self.bound)
    }

    /// The log emission of "no road here": that of a road ``MatcherConfiguration/offMapDistance`` σ away.
    private static func offEmission(_ configuration: MatcherConfiguration) -> Double {
        -0.5 * configuration.offMapDistance * configuration.offMapDistance
    }
}
