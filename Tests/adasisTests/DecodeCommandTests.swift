import ADASISProvider
import ADASISv2
import Foundation
import RoadMap
import Testing
import TestSupport

@Test("adasis decode prints every frame's fields, reports bad lines by number and carries on")
func decodeCommandOnTheSampleHorizon() throws {
    try requireBuiltAdasis()
    let log = try String(contentsOf: Repository.root.appendingPathComponent("Tools/sample-frames.log"), encoding: .utf8)
    let input = log + "garbage\n(1.0) vcan0 123#00\n(1.1) vcan0 250#0102\n"
    let (status, out, err) = try runProcess(
        Repository.url(".build/debug/adasis"), ["decode", "-"],
        input: Data(input.utf8))
    #expect(status == 0)
    let lines = out.split(separator: "\n")
    #expect(
        lines.map { $0.split(separator: " ")[2] } == [
            "metaData", "segment", "profileShort", "stub", "segment", "position",
        ])
    #expect(
        lines[1].contains("EffectiveSpeedLimit=11(≤50 km/h)") && lines[4].contains("EffectiveSpeedLimit=7(≤30 km/h)"))
    #expect(lines[2].contains("Value0=770(+0.01008 1/m, R 99 m right)") && lines[2].contains("Value1=511(straight)"))
    #expect(err.contains("line 7: expected a timestamp"))
    #expect(err.contains("line 8: identifier 123 is not an ADASIS v2 identifier"))
    #expect(err.contains("line 9: 2 data bytes; an ADASIS v2 frame has 8"))
}

/// Runs `adasis decode -` on a candump log of one PROFILE SHORT per case (profile type, the
/// object type's wire code in Value0, Value1), on path 8 at offsets 100, 101, …; the log, the
/// status, stdout and stdout's lines.
private func decodeProfileShorts(
    _ cases: [(ProfileShortType, RoadObjectType, UInt16)]
) throws -> (log: String, status: Int32, out: String, lines: [String]) {
    var log = ""
    for (index, (type, object, value1)) in cases.enumerated() {
        var message = ProfileShortMessage(
            offset: UInt16(100 + index), pathIndex: 8, profileType: type, value0: RoadObjectWireCode.code(object))
        message.value1 = value1
        let bytes = try ADASISMessage.profileShort(message).encode()
        log += "(0.\(index)) vcan0 255#" + bytes.map { String(format: "%02X", $0) }.joined() + "\n"
    }
    let (status, out, _) = try runProcess(
        Repository.url(".build/debug/adasis"), ["decode", "-"], input: Data(log.utf8))
    return (log, status, out, out.split(separator: "\n").map(String.init))
}

/// The road-object profiles (PROFILE SHORT 18, 19, 20) are named by `adasis decode` and by the DBC
/// through cantools alike, and the decode command names the object type carried in Value0.
@Test("adasis decode and the DBC (cantools) name the road-object profile types the same")
func decodeNamesRoadObjectProfiles() throws {
    try requireBuiltAdasis()
    let (log, status, _, lines) = try decodeProfileShorts([
        (.roadObject, .tollBooth, 1023), (.roadObjectZoneStart, .averageSpeedZone, 80),
        (.roadObjectZoneEnd, .tunnel, 1023), (.safetyCamera, .restrictionCamera, 1023),
    ])
    #expect(status == 0)
    #expect(lines.count == 4)
    #expect(lines[0].contains("ProfileType=18(road object)") && lines[0].contains("Value0=9(toll_booth)"))
    #expect(lines[1].contains("ProfileType=19(road object zone start)") && lines[1].contains("(average_speed_zone)"))
    #expect(lines[1].contains("Value1=80(80 km/h enforced)"))
    #expect(lines[2].contains("ProfileType=20(road object zone end)") && lines[2].contains("Value0=7(tunnel)"))
    #expect(lines[3].contains("Value0=5(restriction camera)"))
    let script = """
        import sys, cantools
        db = cantools.database.load_file("Tools/adasis-v2.dbc")
        for line in sys.stdin:
            ident, data = line.split()[2].split("#")
            print(db.decode_message(int(ident, 16), bytes.fromhex(data))["ProfileType"])
        """
    let names = try runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: Data(log.utf8))
    #expect(names.status == 0, "\(names.stderr)")
    #expect(
        names.stdout.split(separator: "\n") == [
            "road object", "road object zone start", "road object zone end", "safety camera",
        ])
}

/// A hazard's kind in Value1 of PROFILE SHORT 18 and 19 is named by `adasis decode`, and the DBC's
/// `HazardKind` value table (read by cantools) names every code of ``HazardKind`` alike.
@Test("adasis decode and the DBC's HazardKind table name the hazard kinds")
func decodeNamesHazardKinds() throws {
    try requireBuiltAdasis()
    let (_, status, out, lines) = try decodeProfileShorts([
        (.roadObject, .hazard, HazardKind.animalCrossing.rawValue),
        (.roadObjectZoneStart, .hazard, HazardKind.children.rawValue), (.roadObjectZoneStart, .hazard, 1023),
    ])
    #expect(status == 0)
    #expect(lines.count == 3)
    #expect(lines[0].contains("Value0=16(hazard)") && lines[0].contains("Value1=3(hazard animal_crossing)"), "\(out)")
    #expect(lines[1].contains("Value1=1(hazard children)"), "\(out)")
    #expect(lines[2].contains("Value1=1023(hazard kind not stated)"), "\(out)")
    let script = """
        import cantools
        table = cantools.database.load_file("Tools/adasis-v2.dbc").dbc.value_tables["HazardKind"]
        for code, name in sorted(table.items()):
            print(code, str(name).replace(" ", "_"))
        """
    let names = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script])
    #expect(names.status == 0, "\(names.stderr)")
    let expected =
        HazardKind.allCases.map { "\($0.rawValue) \($0 == .other ? "other" : $0.osmValue)" } + ["1023 not_stated"]
    #expect(names.stdout.split(separator: "\n").map(String.init) == expected, "\(names.stdout)")
}
