/// The receiver's accuracy estimated from how far fixes lie from their matched points, for fixes
/// that report none (see ``MatcherConfiguration/estimatesAccuracy``).
struct ResidualAccuracy: Sendable {
    private var meanSquare = 0.0
    private var count = 0

    /// Takes the distance of one fix from its matched point.
    mutating func add(_ distance: Double, _ configuration: MatcherConfiguration) {
        guard configuration.estimatesAccuracy, distance.isFinite else { return }
        let weight = count == 0 ? 1 : max(configuration.accuracyEstimateWeight, 1 / Double(count + 1))
        meanSquare += weight * (distance * distance - meanSquare)
        count += 1
    }

    /// The estimated 1-sigma accuracy, `nil` until enough fixes are in.
    func accuracy(_ configuration: MatcherConfiguration) -> Double? {
        guard configuration.estimatesAccuracy, count >= configuration.accuracyEstimateMinimumFixes else { return nil }
        return min(
            configuration.maximumEstimatedAccuracy, max(configuration.minimumAccuracy, (meanSquare / 2).squareRoot()))
    }
}
