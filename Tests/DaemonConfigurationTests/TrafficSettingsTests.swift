import Testing
@testable import DaemonConfiguration

/// `[traffic]`: the feed file and how often it is checked.
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
            try DaemonConfiguration(toml: Self.base + "[traffic]\nurl = \"http://x\"\n", source: "a.toml")
        } throws: { "\($0)".contains("traffic.url") && "\($0)".contains("unknown key") }
    }
}
