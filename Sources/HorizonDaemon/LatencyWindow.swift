/// Per-fix processing times of one metrics interval, and their quantiles.
public struct LatencyWindow: Hashable, Sendable {
    /// The samples of the current interval, seconds.
    public private(set) var samples: [Double] = []
    /// Samples kept at most per interval (the oldest beyond are dropped).
    public let capacity: Int

    /// An empty window keeping at most `capacity` samples.
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// Records one fix's processing time.
    public mutating func record(_ seconds: Double) {
        if samples.count >= capacity { samples.removeFirst(samples.count - capacity + 1) }
        samples.append(seconds)
    }

    /// The `q` quantile (0…1) by the nearest-rank method; `nil` without samples.
    public func quantile(_ q: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((min(max(q, 0), 1) * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    /// Starts the next interval.
    public mutating func reset() { samples.removeAll(keepingCapacity: true) }
}
