/// `[traffic]`: where the daemon gets its traffic feed (`Docs/traffic-feed.md`): a file, or an
/// HTTP URL polled with traffic-model-id sync through a disk cache; at most one of them.
public struct TrafficSettings: Hashable, Sendable {
    /// The feed file (JSON), re-read whenever it changes; `nil`: no file.
    public var feedPath: String?
    /// Seconds between checks of the feed file for a change.
    public var checkInterval: Double
    /// The feed's HTTP URL, polled; `{trafficModelId}` in it is replaced by the model id the
    /// model-id service names. `nil`: no polling.
    public var url: String?
    /// The traffic-model-id service asked each poll (the feed is fetched only when its id changes).
    public var modelIDURL: String?
    /// Seconds between polls (TomTom's SDK: 30).
    public var pollInterval: Double
    /// The directory of the HTTP response cache; `nil`: no cache (nothing served while offline).
    public var cacheDirectory: String?
    /// The cache's byte budget (least recently used entries are evicted beyond it).
    public var cacheBytes: Int

    /// Creates settings.
    public init(
        feedPath: String? = nil, checkInterval: Double = 5, url: String? = nil, modelIDURL: String? = nil,
        pollInterval: Double = 30, cacheDirectory: String? = nil, cacheBytes: Int = 50_000_000
    ) {
        self.feedPath = feedPath
        self.checkInterval = checkInterval
        self.url = url
        self.modelIDURL = modelIDURL
        self.pollInterval = pollInterval
        self.cacheDirectory = cacheDirectory
        self.cacheBytes = cacheBytes
    }

    /// Whether a feed is configured (a file or a URL).
    public var hasSource: Bool { feedPath != nil || url != nil }

    /// The text in a feed URL that the model id replaces.
    public static let modelIDPlaceholder = "{trafficModelId}"
}

extension ConfigurationReader {
    /// `[traffic]`: `feed` (a file path) and `check_interval_s`, or `url`, `model_id_url`,
    /// `poll_seconds`, `cache_dir` and `cache_bytes`.
    mutating func traffic() throws(ConfigurationError) -> TrafficSettings {
        let settings = TrafficSettings(
            feedPath: try optionalString("traffic.feed"),
            checkInterval: try number("traffic.check_interval_s", default: 5, range: 0.1...3600),
            url: try httpURL("traffic.url"),
            modelIDURL: try httpURL("traffic.model_id_url"),
            pollInterval: try number("traffic.poll_seconds", default: 30, range: 1...86_400),
            cacheDirectory: try optionalString("traffic.cache_dir"),
            cacheBytes: try integer("traffic.cache_bytes", default: 50_000_000, range: 10_000...100_000_000_000))
        func refuse(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, line: document.lines[key], problem: problem)
        }
        if settings.feedPath != nil, settings.url != nil {
            throw refuse(
                "traffic.url",
                "give either 'feed' (a file) or 'url' (polled over HTTP), not both; remove one of them")
        }
        if settings.url == nil {
            for key in ["traffic.model_id_url", "traffic.poll_seconds", "traffic.cache_dir", "traffic.cache_bytes"]
            where document.values[key] != nil {
                throw refuse(key, "applies to a feed polled over HTTP only; add 'url' or remove this key")
            }
        }
        if let url = settings.url, url.contains(TrafficSettings.modelIDPlaceholder), settings.modelIDURL == nil {
            throw refuse(
                "traffic.url",
                "names \(TrafficSettings.modelIDPlaceholder) but no 'model_id_url' says which model to ask for; add one"
            )
        }
        return settings
    }

    /// An `http://` or `https://` URL at `key`, if given.
    private mutating func httpURL(_ key: String) throws(ConfigurationError) -> String? {
        guard let text = try optionalString(key) else { return nil }
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), text.count > 8, !text.contains(" ") else {
            throw ConfigurationError(
                file: file, key: key, line: document.lines[key],
                problem: "'\(text)' is not an http:// or https:// URL")
        }
        return text
    }
}
