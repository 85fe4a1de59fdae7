/// The receiver's accuracy estimated from how far fixes lie from their matched points, for fixes
/// that report none (see ``MatcherConfiguration/estimatesAccuracy``).
struct ResidualAccuracy: Sendable {
    private var meanSquare = RunningMean()

    /// Takes the distance of one fix from its matched point.
    mutating func add(_ distance: Double, _ configuration: MatcherConfiguration) {
        guard configuration.estimatesAccuracy, distance.isFinite else { return }
        meanSquare.add(distance * distance, floorWeight: configuration.accuracyEstimateWeight)
    }

    /// The estimated 1-sigma accuracy, `nil` until enough fixes are in.
    func accuracy(_ configuration: MatcherConfiguration) -> Double? {
        guard configuration.estimatesAccuracy, meanSquare.count >= configuration.accuracyEstimateMinimumFixes else {
            return nil
        }
        return min(
            configuration.maximumEstimatedAccuracy,
            max(configuration.minimumAccuracy, (meanSquare.value / 2).squareRoot()))
    }
}
