import Routing
import Testing
@testable import DaemonConfiguration

/// `[routing]` and `[dbus]`: read into typed values, checked like every other key.
@Suite("configuration file: routing and D-Bus")
struct RouteSettingsTests {
    static let base = "[map]\npath = \"m.map\"\n[can]\ninterface = \"vcan0\"\n"

    @Test("defaults: TomTom's replanning, D-Bus off, org.adasis.Horizon1 on the system bus")
    func defaults() throws {
        let configuration = try DaemonConfiguration(toml: Self.base, source: "a.toml")
        #expect(configuration.routing == RouteSessionConfiguration())
        #expect(
            configuration.dbus
                == DBusSettings(
                    enabled: false, bus: .system, name: "org.adasis.Horizon1", objectPath: "/org/adasis/Horizon1"))
    }

    @Test("every key is read")
    func keys() throws {
        let configuration = try DaemonConfiguration(
            toml: Self.base + """
                [routing]
                deviation_replanning = "none"
                route_updates = false
                replan_interval_s = 60
                [dbus]
                enabled = true
                bus = "session"
                name = "org.example.Nav_2"
                object_path = "/org/example/nav"
                """, source: "a.toml")
        #expect(configuration.routing.deviationReplanning == .none)
        #expect(!configuration.routing.routeUpdates && configuration.routing.replanInterval == 60)
        #expect(
            configuration.dbus
                == DBusSettings(enabled: true, bus: .session, name: "org.example.Nav_2", objectPath: "/org/example/nav")
        )
    }

    @Test(
        "bad values name the file, line, key and what to write",
        arguments: [
            (
                "[routing]\ndeviation_replanning = \"sometimes\"\n",
                "a.toml:6: routing.deviation_replanning: 'sometimes' is not one of \"automatic\", \"none\""
            ),
            ("[routing]\nreplan_interval_s = 1\n", "a.toml:6: routing.replan_interval_s: 1.0 is outside 10.0…86400.0"),
            (
                "[routing]\nroute_update = true\n",
                "a.toml:6: routing.route_update: unknown key; did you mean 'routing.route_updates'?"
            ),
            ("[dbus]\nbus = \"user\"\n", "a.toml:6: dbus.bus: 'user' is not one of \"system\", \"session\""),
            (
                "[dbus]\nname = \"adasis\"\n",
                "a.toml:6: dbus.name: 'adasis' is not a well-known D-Bus name: two or more dot-separated elements of ASCII letters, digits, _ and -, none starting with a digit (e.g. \"org.adasis.Horizon1\")"
            ),
            (
                "[dbus]\nobject_path = \"/org/adasis/\"\n",
                "a.toml:6: dbus.object_path: '/org/adasis/' is not a D-Bus object path: '/' followed by elements of ASCII letters, digits and _, separated by single '/' (e.g. \"/org/adasis/Horizon1\")"
            ),
            ("[dbus]\nname = \"org.1adasis.H\"\n", "a.toml:6: dbus.name: 'org.1adasis.H'"),
        ])
    func errors(text: String, message: String) {
        #expect { try DaemonConfiguration(toml: Self.base + text, source: "a.toml") } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
