import Foundation
import Testing
@testable import ADASISv2
import TestSupport

/// Frames produced by our encoder are decoded by cantools through Tools/adasis-v2.dbc, and every
/// field compared: the DBC engineers load into their CAN tools agrees with the codec.
@Test func dbcDecodedWithCantoolsAgreesWithTheEncoder() throws {
    let identifiers: [MessageType: String] = [
        .position: "361", .segment: "250", .stub: "251",
        .profileShort: "255", .profileLong: "252", .metaData: "362",
    ]
    var random = SplitMix64(seed: 7)
    var log = "", expected = ""
    for index in 0..<600 {
        let type = [MessageType.position, .segment, .stub, .profileShort, .profileLong, .metaData][index % 6]
        var values: [String: UInt64] = [:]
        for field in MessageLayout.fields(of: type)! where !field.isReserved && field.name != "MessageType" {
            let maximum: UInt64 = (1 << UInt64(field.bits)) - 1
            // Limits first, then random values.
            values[field.name] = index < 6 ? 0 : index < 12 ? maximum : UInt64.random(in: 0...maximum, using: &random)
        }
        let bytes = try FieldPacking.pack(type, values)
        log +=
            "(0.\(String(format: "%06d", index))) vcan0 \(identifiers[type]!)#"
            + bytes.map { String(format: "%02X", $0) }.joined() + "\n"
        values["MessageType"] = UInt64(type.rawValue)
        expected +=
            String(decoding: try JSONSerialization.data(withJSONObject: values, options: [.sortedKeys]), as: UTF8.self)
            + "\n"
    }
    let directory = ScratchDirectory.url("dbc-check")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try log.write(to: directory.appendingPathComponent("frames.log"), atomically: true, encoding: .utf8)
    try expected.write(to: directory.appendingPathComponent("expected.jsonl"), atomically: true, encoding: .utf8)

    let check = try runProcess(
        URL(fileURLWithPath: "/usr/bin/env"),
        [
            "python3", Repository.url("Tools/dbc_check.py").path,
            directory.appendingPathComponent("frames.log").path,
            directory.appendingPathComponent("expected.jsonl").path,
        ])
    #expect(
        check.status == 0, "dbc_check failed (pip install cantools if it is missing):\n\(check.stdout)\(check.stderr)")
    #expect(check.stdout.contains("600 frames agree"))
}

/// The demo's sample horizon (encoded by cantools through the DBC) unpacks with our codec to the
/// values its script wrote: the two sides agree in the other direction too.
@Test func sampleHorizonEncodedByCantoolsUnpacksWithOurCodec() throws {
    let text = try String(contentsOf: Repository.url("Tools/sample-frames.log"), encoding: .utf8)
    var decoded: [(MessageType, [String: UInt64])] = []
    for line in text.split(separator: "\n") {
        let data = line.split(separator: " ")[2].split(separator: "#")[1]
        let bytes = stride(from: 0, to: data.count, by: 2).map {
            UInt8(data.dropFirst($0).prefix(2), radix: 16)!
        }
        decoded.append(try FieldPacking.unpack(bytes))
    }
    #expect(decoded.map(\.0) == [.metaData, .segment, .profileShort, .stub, .segment, .position])
    #expect(decoded[0].1["CountryCode"] == 246 && decoded[0].1["MapProvider"] == 6)
    #expect(decoded[1].1["EffectiveSpeedLimit"] == 11 && ValueCoding.speedLimit(code: 11) == 50)
    #expect(decoded[2].1["Value0"] == 770 && decoded[2].1["Offset"] == 180)
    #expect(decoded[3].1["SubPathIndex"] == 9 && decoded[3].1["LastStubAtOffset"] == 1)
    #expect(decoded[4].1["EffectiveSpeedLimit"] == 7 && decoded[4].1["Offset"] == 300)
    #expect(decoded[5].1["Speed"] == 133 && decoded[5].1["PathIndex"] == 8)
}
