import ADASISv2
import ArgumentParser
import DaemonConfiguration
import Foundation
import Testing
import TestSupport
@testable import adasis

/// The name table of ADASISv2 (``SelectableMessage``, ``SelectableProfile``,
/// ``MessageSelection/Preset``, ``OffsetPolicy``) is the one list of names: the configuration
/// file, the replay command line, its help and the sample configuration must all accept and show
/// every entry, under the same key.
@Suite("one name table: configuration file, command line and help agree")
struct NameTableAgreementTests {
    private static func configuration(_ extra: String) throws -> DaemonConfiguration {
        try DaemonConfiguration(
            toml: "[map]\npath = \"m.map\"\n[can]\ninterface = \"vcan0\"\n" + extra, source: "t.toml")
    }

    private static func replay(_ extra: [String]) throws -> ReplayCommand {
        try ReplayCommand.parse(["--map", "m.map", "drive.csv", "--candump", "out.log"] + extra)
    }

    @Test(
        "every message type key is a [messages] switch and a [can.identifiers] entry",
        arguments: SelectableMessage.allCases)
    func messageKey(_ message: SelectableMessage) throws {
        let parsed = try Self.configuration(
            "[messages]\n\(message.rawValue) = false\n[can.identifiers]\n\(message.rawValue) = 0x123\n")
        #expect(parsed.messageOverrides == [message: false])
        #expect(parsed.identifiers == [message: 0x123])
    }

    @Test(
        "every profile key is a [messages.profiles] switch and a --profiles value",
        arguments: SelectableProfile.allCases)
    func profileKey(_ profile: SelectableProfile) throws {
        let parsed = try Self.configuration("[messages.profiles]\n\(profile.rawValue) = true\n")
        #expect(parsed.profileOverrides == [profile: true])
        #expect(try Self.replay(["--profiles", profile.rawValue]).profiles == [profile])
    }

    @Test("every preset is a messages.preset value and a --preset value", arguments: MessageSelection.Preset.allCases)
    func presetKey(_ preset: MessageSelection.Preset) throws {
        #expect(try Self.configuration("[messages]\npreset = \"\(preset.rawValue)\"\n").messagePreset == preset)
        #expect(try Self.replay(["--preset", preset.rawValue]).preset == preset)
    }

    @Test(
        "every offset policy is a provider.offset_policy value and an --offset-policy value",
        arguments: OffsetPolicy.allCases)
    func offsetPolicyKey(_ policy: OffsetPolicy) throws {
        #expect(try Self.configuration("[provider]\noffset_policy = \"\(policy.rawValue)\"\n").offsetPolicy == policy)
        #expect(try Self.replay(["--offset-policy", policy.rawValue]).offsetPolicy == policy)
    }

    @Test("a list of every profile parses in order; an unknown name is refused by both")
    func lists() throws {
        let all = SelectableProfile.allCases.map(\.rawValue).joined(separator: ",")
        #expect(try Self.replay(["--profiles", all]).profiles == SelectableProfile.allCases)
        #expect(throws: (any Error).self) { try Self.replay(["--profiles", "curvature,speed_limit"]) }
        #expect(throws: (any Error).self) { try Self.replay(["--preset", "maxi"]) }
        #expect(throws: (any Error).self) { try Self.replay(["--offset-policy", "clamp"]) }
        #expect(throws: ConfigurationError.self) { try Self.configuration("[messages.profiles]\nspeed_limit = true\n") }
        #expect(throws: ConfigurationError.self) { try Self.configuration("[messages]\npreset = \"maxi\"\n") }
    }

    @Test("replay --help lists every preset, profile and offset policy")
    func help() {
        let help = ReplayCommand.helpMessage(columns: 10_000)
        let names =
            MessageSelection.Preset.allCases.map(\.rawValue) + SelectableProfile.allCases.map(\.rawValue)
            + OffsetPolicy.allCases.map(\.rawValue)
        for name in names { #expect(help.contains(name), "replay --help does not mention \(name)") }
        #expect(help.contains(SelectableProfile.allCases.map(\.rawValue).joined(separator: ", ")))
    }

    @Test("the sample configuration udev/adasis.toml names every message and profile key")
    func sampleConfiguration() throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("udev/adasis.toml"), encoding: .utf8)
        let lines = Set(
            text.split(separator: "\n").map { $0.drop { $0 == "#" }.split(separator: " ").first.map(String.init) ?? "" }
        )
        for message in SelectableMessage.allCases { #expect(lines.contains(message.rawValue), "\(message.rawValue)") }
        for profile in SelectableProfile.allCases { #expect(lines.contains(profile.rawValue), "\(profile.rawValue)") }
    }
}
