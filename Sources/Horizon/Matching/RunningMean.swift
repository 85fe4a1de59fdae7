/// A mean that starts as the plain mean of the values added and becomes an exponential one: the
/// n-th value weighs 1/n until that falls to the floor weight, then the floor weight, so the first
/// values are not overweighted and later ones keep following a change.
struct RunningMean: Sendable {
    /// The mean so far (0 before any value).
    private(set) var value = 0.0
    /// How many values went into it.
    private(set) var count = 0

    /// Adds `x`, weighing it `max(floorWeight, 1 / count)`.
    mutating func add(_ x: Double, floorWeight: Double) {
        count += 1
        value += max(floorWeight, 1 / Double(count)) * (x - value)
    }
}
