import DaemonConfiguration
import Foundation
import Horizon
import RoadMap
import Testing
import TestSupport
@testable import HorizonDaemon

/// `safety_locations.rules` in the daemon's configuration: the table it names is read with the
/// configuration (so a SIGHUP reload reads it again), reaches the horizon engine with the map's
/// regions, and a missing or bad table refuses the whole configuration with file, line and key.
@Suite("adasis run: the safety-location rules file")
struct SafetyRulesLoadTests {
    static func write(_ files: [String: String]) throws -> URL {
        let directory = ScratchDirectory.url("rules-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    static func configuration(rules: String?) -> String {
        "[map]\npath = \"m.map\"\n[can]\ninterface = \"vcan0\"\n"
            + (rules.map { "[safety_locations]\nrules = \"\($0)\"\n" } ?? "")
    }

    @Test("without the key the built-in table applies; with it, the named table, and the map's regions")
    func loaded() throws {
        let table = "[region.FI-18]\nfixed_speed_camera = false\nsource = \"test\"\n"
        let directory = try Self.write(["rules.toml": table])
        defer { try? FileManager.default.removeItem(at: directory) }
        let rulesPath = directory.appendingPathComponent("rules.toml").path
        try Self.configuration(rules: nil).write(
            to: directory.appendingPathComponent("default.toml"), atomically: true, encoding: .utf8)
        try Self.configuration(rules: rulesPath).write(
            to: directory.appendingPathComponent("custom.toml"), atomically: true, encoding: .utf8)
        let builtIn = try DaemonConfiguration.load(path: directory.appendingPathComponent("default.toml").path)
        #expect(builtIn.safetyLocationRules == (try SafetyLocationRules.shippedDefault()))
        let custom = try DaemonConfiguration.load(path: directory.appendingPathComponent("custom.toml").path)
        #expect(custom.safetyRulesPath == rulesPath)
        let uusimaa = try Region(code: "FI-18")
        #expect(!custom.safetyLocationRules.allows(.fixedSpeedCamera, country: uusimaa.country, region: uusimaa))
        let map = MapMetadata(
            sourceFile: "m.osm.pbf", sourceTimestamp: nil, countries: ["FI"], regions: ["FI-18"],
            boundingBox: [60, 24, 61, 25], importReport: ImportReport())
        let settings = try PipelineSettings(custom, map: map, file: "custom.toml")
        #expect(settings.horizon.safetyLocationRules == custom.safetyLocationRules)
        #expect(settings.horizon.places.region(1) == uusimaa)
        #expect(settings.provider.places.region(1) == uusimaa)
    }

    @Test("a missing or bad rules table refuses the configuration, naming the file, line and key")
    func refused() throws {
        let directory = try Self.write(["bad.toml": "[country.ZZ]\nsafety_locations = false\nsource = \"x\"\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.toml").path
        let missing = directory.appendingPathComponent("missing.toml").path
        for (name, rules) in [("a.toml", bad), ("b.toml", missing)] {
            try Self.configuration(rules: rules).write(
                to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        #expect {
            try DaemonConfiguration.load(path: directory.appendingPathComponent("a.toml").path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.file == bad && error.line == 2 && error.key == "country.ZZ.safety_locations"
                && error.problem.contains("unknown country code 'ZZ'")
        }
        #expect {
            try DaemonConfiguration.load(path: directory.appendingPathComponent("b.toml").path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.file.hasSuffix("b.toml") && error.key == "safety_locations.rules"
                && error.problem.contains("cannot read the safety-location rules \(missing)")
        }
    }
}
