import Testing
@testable import DaemonConfiguration

/// `[traffic]`: the feed file and how often it is checked, or the URL polled over HTTP.
@Suite("configuration file: traffic")
struct TrafficSettingsTests {
    static let base = "[map]\npath = \"m.map\"\n[can]\ninterface = \"vcan0\"\n"

    @Test("no feed by default, checked every 5 s once given; a bad interval or an unknown key is refused by line")
    func traffic() throws {
        #expect(try DaemonConfiguration(toml: Self.base, source: "a.toml").traffic == TrafficSettings())
        let given = try DaemonConfiguration(
            toml: Self.base + "[traffic]\nfeed = \"/run/adasis/traffic.json\"\ncheck_interval_s = 30\n",
            source: "a.toml")
        #expect(given.traffic == TrafficSettings(feedPath: "/run/adasis/traffic.json", checkInterval: 30))
        #expect {
            try DaemonConfiguration(toml: Self.base + "[traffic]\ncheck_interval_s = 0\n", source: "a.toml")
        } throws: { "\($0)".hasPrefix("a.toml:6: traffic.check_interval_s: ") }
        #expect {
            try DaemonConfiguration(toml: Self.base + "[traffic]\nfeeds = \"/run/a.json\"\n", source: "a.toml")
        } throws: { "\($0)".contains("traffic.feeds") && "\($0)".contains("unknown key; did you mean 'traffic.feed'") }
    }

    @Test("a URL polled every 30 s by default with a 50 MB cache; every key read, every mistake refused by line")
    func polled() throws {
        let url = "http://127.0.0.1:8080/feed.json?model={trafficModelId}"
        let given = try DaemonConfiguration(
            toml: Self.base
                + "[traffic]\nurl = \"\(url)\"\nmodel_id_url = \"http://127.0.0.1:8080/model\"\n"
                + "cache_dir = \"/var/cache/adasis/traffic\"\n",
            source: "a.toml")
        #expect(
            given.traffic
                == TrafficSettings(
                    url: url, modelIDURL: "http://127.0.0.1:8080/model", pollInterval: 30,
                    cacheDirectory: "/var/cache/adasis/traffic", cacheBytes: 50_000_000))
        #expect(given.traffic.hasSource)
        let tuned = try DaemonConfiguration(
            toml: Self.base
                + "[traffic]\nurl = \"https://feeds.example/f.json\"\npoll_seconds = 5\ncache_bytes = 1000000\n",
            source: "a.toml")
        #expect(
            tuned.traffic.pollInterval == 5 && tuned.traffic.cacheBytes == 1_000_000 && tuned.traffic.modelIDURL == nil)

        let refusals: [(String, String)] = [
            ("feed = \"/run/a.json\"\nurl = \"http://x.example/f\"\n", "a.toml:7: traffic.url: give either 'feed'"),
            ("url = \"ftp://x.example/f\"\n", "a.toml:6: traffic.url: 'ftp://x.example/f' is not an http"),
            ("url = \"http://x.example/{trafficModelId}\"\n", "a.toml:6: traffic.url: names {trafficModelId} but no"),
            ("feed = \"/run/a.json\"\npoll_seconds = 10\n", "a.toml:7: traffic.poll_seconds: applies to a feed polled"),
            ("url = \"http://x.example/f\"\npoll_seconds = 0\n", "a.toml:7: traffic.poll_seconds: 0.0 is outside"),
            ("url = \"http://x.example/f\"\ncache_bytes = 10\n", "a.toml:7: traffic.cache_bytes: 10 is outside"),
            (
                "url = \"http://x.example/f\"\nmodel_id_url = \"x.example\"\n",
                "a.toml:7: traffic.model_id_url: 'x.example'"
            ),
        ]
        for (section, expected) in refusals {
            #expect(throws: ConfigurationError.self, "\(section)") {
                try DaemonConfiguration(toml: Self.base + "[traffic]\n" + section, source: "a.toml")
            }
            do {
                _ = try DaemonConfiguration(toml: Self.base + "[traffic]\n" + section, source: "a.toml")
            } catch {
                #expect("\(error)".hasPrefix(expected), "\(error)")
            }
        }
    }
}
