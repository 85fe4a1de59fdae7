import Foundation
import Testing
import ADASISv2
@testable import DaemonConfiguration
import TestSupport

@Suite("configuration file")
struct DaemonConfigurationTests {
    static let complete = """
        # adasis daemon
        [map]
        path = "/var/lib/adasis/helsinki.map"   # the imported map
        cache_mb = 32

        [gnss]
        source = "nmea"
        nmea_path = '/dev/ttyACM0'

        [can]
        interface = "can-adas"
        byte_order = "little"
        extended_identifiers = true
        [can.identifiers]
        position = 0x1800_0361
        segment = 592

        [messages]
        preset = "all"
        profile_long = false
        [messages.profiles]
        safety_camera = true

        [horizon]
        main_length_m = 3000
        level1_length_m = 600.5
        max_level = 1

        [provider]
        position_rate_hz = 20
        frames_per_100ms = 40

        [logging]
        level = "debug"

        [metrics]
        textfile = "/var/lib/node_exporter/textfile_collector/adasis.prom"
        """

    @Test("every section is read into typed values")
    func complete() throws {
        let configuration = try DaemonConfiguration(toml: Self.complete, source: "adasis.toml")
        #expect(configuration.mapPath == "/var/lib/adasis/helsinki.map")
        #expect(configuration.mapCacheMegabytes == 32)
        #expect(configuration.gnss == .nmea(path: "/dev/ttyACM0"))
        #expect(configuration.canInterface == "can-adas")
        #expect(configuration.byteOrderLittleEndian)
        #expect(configuration.identifiers == [.position: 0x1800_0361, .segment: 592])
        #expect(configuration.messagePreset == .all && configuration.messageOverrides == [.profileLong: false])
        #expect(configuration.profileOverrides == [.safetyCamera: true])
        #expect(configuration.lookAhead == [3000, 600.5, 500])
        #expect(configuration.maximumLevel == 1)
        #expect(configuration.positionRate == 20 && configuration.framesPer100Milliseconds == 40)
        #expect(configuration.logLevel == "debug")
        #expect(configuration.metricsTextfile?.hasSuffix("adasis.prom") == true)
    }

    @Test("the minimal file gets the documented defaults")
    func defaults() throws {
        let configuration = try DaemonConfiguration(
            toml: "[map]\npath = \"m.map\"\n[can]\ninterface = \"vcan0\"\n", source: "a.toml")
        #expect(configuration.gnss == .gpsd(host: "127.0.0.1", port: 2947))
        #expect(configuration.lookAhead == [2000, 500, 500])
        #expect(configuration.positionRate == 10 && configuration.metaDataInterval == 5)
        #expect(!configuration.byteOrderLittleEndian && configuration.multiplexedIdentifier == nil)
        #expect(configuration.messagePreset == .default)
        #expect(configuration.roadObjectTypes.count == 16)
    }

    @Test(
        "errors name the file, line, key and problem",
        arguments: [
            ("[map]\npath = \"m\"\n", "a.toml: can.interface: required key is missing"),
            (
                "[map]\npath = \"m\"\n[can]\ninterface = \"vcan0\"\nbyte_order = \"middle\"\n",
                "a.toml:5: can.byte_order: 'middle' is not one of \"big\", \"little\""
            ),
            (
                "[map]\npath = \"m\"\n[can]\ninterfce = \"vcan0\"\ninterface = \"x\"\n",
                "a.toml:4: can.interfce: unknown key; did you mean 'can.interface'?"
            ),
            (
                "[map]\npath = \"m\"\n[can]\ninterface = \"vcan0\"\n[can.identifiers]\nstub = 0x800\n",
                "a.toml:6: can.identifiers.stub: 2048 is outside 0…2047"
            ),
            ("[map]\npath = m.map\n", "a.toml:2: 'm.map' is not a TOML value (strings need quotes)"),
            ("[map]\npath = \"m\"\npath = \"n\"\n", "a.toml:3: key 'map.path' defined twice"),
            (
                "[map]\npath = \"m\"\n[can]\ninterface = \"v\"\n[horizon]\nmain_length_m = \"far\"\n",
                "a.toml:6: horizon.main_length_m: expected a number, found \"far\""
            ),
            (
                "[map]\npath = \"m\"\n[can]\ninterface = \"v\"\n[horizon]\nu_turns_off_side_paths = true\n",
                "a.toml:6: horizon.u_turns_off_side_paths: needs horizon.u_turns = true (U-turns off the side paths are offered only with U-turns)"
            ),
            (
                "[map]\npath = \"m\"\n[can]\ninterface = \"v\"\n[gnss]\nsource = \"nmea\"\n",
                "a.toml:6: gnss.nmea_path: required when gnss.source = \"nmea\" (a serial device such as /dev/ttyACM0, or a file)"
            ),
            (
                "[map]\npath = \"m\"\n[can]\ninterface = \"v\"\n[horizon]\nobjects = \"tunnel,speed_trap\"\n",
                "a.toml:6: horizon.objects: unknown road object type 'speed_trap'; use a comma-separated list of "
                    + "fixed_speed_camera, mobile_speed_zone, red_light_camera, average_speed_zone, restriction_camera, "
                    + "danger_zone, tunnel, bridge, toll_booth, border_crossing, railway_crossing, traffic_signals, "
                    + "incident, user_defined, congestion, hazard (or all)"
            ),
        ])
    func errors(text: String, message: String) {
        #expect { try DaemonConfiguration(toml: text, source: "a.toml") } throws: { error in
            "\(error)" == message
        }
    }

    @Test("TOML syntax: arrays over several lines, escapes, comments inside strings")
    func syntax() throws {
        let document = try TOMLDocument(
            parsing: """
                a = [1, 2,
                     3]  # trailing comment
                b = "x # not a comment \\"quoted\\" \\u00e9"
                "c.d" = -1.5e3
                e.f = false
                """)
        #expect(document.values["a"] == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(document.values["b"] == .string("x # not a comment \"quoted\" é"))
        #expect(document.values["c.d"] == .float(-1500))
        #expect(document.values["e.f"] == .boolean(false))
        #expect(throws: TOMLSyntaxError(line: 1, message: "inline tables are not supported; use a [table] section")) {
            try TOMLDocument(parsing: "x = {a = 1}")
        }
    }

    @Test("TOML syntax: a nested array over several lines, brackets inside strings, an array left open")
    func arraysOverLines() throws {
        let document = try TOMLDocument(
            parsing: """
                zones = [
                  ["a]", 1],
                  ["[b", 2]
                ]
                after = 3
                """)
        #expect(
            document.values["zones"]
                == .array([.array([.string("a]"), .integer(1)]), .array([.string("[b"), .integer(2)])]))
        #expect(document.values["after"] == .integer(3) && document.lines["after"] == 5)
        #expect(throws: TOMLSyntaxError(line: 2, message: "array not closed with ']'")) {
            try TOMLDocument(parsing: "a = 1\nb = [1,\n2,\n\"]\"")
        }
    }
}

@Suite("the shipped example configuration")
struct ExampleConfigurationTests {
    static let example = Repository.url("udev/adasis.toml")

    @Test("udev/adasis.toml reads without error and states the defaults")
    func exampleParses() throws {
        let text = try String(contentsOf: Self.example, encoding: .utf8)
        let configuration = try DaemonConfiguration(toml: text, source: "udev/adasis.toml")
        let minimal = try DaemonConfiguration(
            toml: "[map]\npath = \"\(configuration.mapPath)\"\n[can]\ninterface = \"\(configuration.canInterface)\"\n",
            source: "minimal.toml")
        // Every key the example sets is the documented default.
        #expect(configuration.lookAhead == minimal.lookAhead && configuration.positionRate == minimal.positionRate)
        #expect(configuration.offsetPolicy == .wrap && configuration.messagePreset == minimal.messagePreset)
    }
}
