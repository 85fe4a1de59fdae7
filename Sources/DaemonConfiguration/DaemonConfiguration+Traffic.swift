/// `[traffic]`: where the daemon reads its traffic feed (`Docs/traffic-feed.md`).
public struct TrafficSettings: Hashable, Sendable {
    /// The feed file (JSON), re-read whenever it changes; `nil`: no traffic.
    public var feedPath: String?
    /// Seconds between checks of the feed file for a change.
    public var checkInterval: Double

    /// Creates settings.
    public init(feedPath: String? = nil, checkInterval: Double = 5) {
        self.feedPath = feedPath
        self.checkInterval = checkInterval
    }
}

extension ConfigurationReader {
    /// `[traffic]`: `feed` (a file path) and `check_interval_s`.
    mutating func traffic() throws(ConfigurationError) -> TrafficSettings {
        TrafficSettings(
            feedPath: try optionalString("traffic.feed"),
            checkInterval: try number("traffic.check_interval_s", default: 5, range: 0.1...3600))
    }
}
