/// A provider's ticks on a simulated clock, for a recorded drive run fix by fix: every
/// ``ProviderConfiguration/tickInterval`` from the drive's first fix on, each run once.
public struct ProviderTicks: Sendable {
    /// Seconds between ticks.
    public let interval: Double
    /// Ticks run so far.
    public private(set) var count = 0

    /// No tick run yet; `interval` seconds between ticks.
    public init(interval: Double) { self.interval = interval }

    /// Runs `provider`'s ticks from the last one run up to `next` (exclusive), counting from
    /// `start` (the drive's first fix), and hands each frame to `frame`.
    public mutating func run(
        _ provider: ADASISProvider, before next: Double, from start: Double,
        frame: (ProviderFrame) -> Void = { _ in }
    ) {
        while start + Double(count) * interval < next - 1e-9 {
            for item in provider.tick(at: start + Double(count) * interval) { frame(item) }
            count += 1
        }
    }
}
