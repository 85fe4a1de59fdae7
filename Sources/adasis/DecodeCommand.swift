import ADASISv2
import ADASISProvider
import ArgumentParser
import Foundation
import InputPolicy
import RoadMap
import SocketCAN

/// `adasis decode`: prints the ADASIS v2 messages of a candump log, one line (or JSON object) per frame.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode ADASIS v2 frames from a candump -L log.",
        discussion: """
            Reads a candump log (or - for standard input, so `candump -L vcan0 | adasis decode -` works
            live) and prints one line per frame: time, identifier, message type and every field.
            Frames are recognised by the default identifiers (POSITION 361, SEGMENT 250, STUB 251,
            PROFILE SHORT 255, PROFILE LONG 252, META-DATA 362); with --any-id every 8-byte frame is
            decoded by its message-type bits. Unknown identifiers and malformed lines are skipped and
            counted; the first few are reported on standard error with their line number, and a count
            by reason at the end. With --strict the first one ends the command with an error.
            """)

    @Argument(help: "The candump log to read, or - for standard input.")
    var file: String

    @Flag(help: "Print one JSON object per frame instead of text.")
    var json = false

    @Flag(help: "Decode frames with any identifier by their message-type bits.")
    var anyID = false

    @Option(help: "Byte order of the payload: bigEndian or littleEndian (the 8 bytes reversed).")
    var byteOrder: String = "bigEndian"

    @Flag(help: "Stop with an error at the first line that is not a decodable ADASIS v2 frame.")
    var strict = false

    static let defaultIdentifiers = Dictionary(
        uniqueKeysWithValues: CANIdentifierAssignment.defaultIdentifiers.map { ($1, $0) })

    func run() throws {
        guard let order = ByteOrder(rawValue: byteOrder) else {
            throw ValidationError("--byte-order must be bigEndian or littleEndian, not '\(byteOrder)'")
        }
        let input: FileHandle
        if file == "-" {
            input = FileHandle.standardInput
        } else {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw ValidationError("cannot open '\(file)': no such file or not readable")
            }
            input = handle
        }
        var lineNumber = 0
        var pending = Data()
        var skipped = SkippedRecords()
        func handle(_ line: Substring) throws(BadRecordError) {
            lineNumber += 1
            do {
                guard let record = try CandumpLog.parse(line: line, lineNumber: lineNumber) else { return }
                print(try describe(record, line: lineNumber, order: order))
                fflush(nil)  // flush per line so a live pipe sees each frame
            } catch {
                let record = SkippedRecord(line: lineNumber, reason: Self.reason(error), error: error)
                try skipped.add(record, policy: strict ? .strict : .skip)
                // The first few as they come (a live pipe shows them at once), the rest counted.
                if skipped.count <= skipped.exampleLimit {
                    printToStandardError("adasis decode: \(error) (skipped)")
                }
            }
        }
        do throws(BadRecordError) {
            while true {
                let chunk = input.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    try handle(Substring(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { try handle(Substring(String(decoding: pending, as: UTF8.self))) }
        } catch {
            printToStandardError("adasis decode: \(file): \(error)")
            throw ExitCode.failure
        }
        if skipped.count > skipped.exampleLimit {
            printToStandardError("adasis decode: \(file): lines \(skipped)")
        }
    }

    /// The reason a line was skipped, for the count by reason.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as CandumpParseError:
            switch error {
            case .badTimestamp: return "bad timestamp"
            case .missingInterface: return "no interface"
            case .badFrame: return "bad frame"
            }
        case is UnknownIdentifier: return "not an ADASIS v2 identifier"
        default: return "not decodable"
        }
    }

    private struct UnknownIdentifier: Error, CustomStringConvertible {
        let line: Int, identifier: CANIdentifier
        var description: String {
            "line \(line): identifier \(identifier) is not an ADASIS v2 identifier (use --any-id)"
        }
    }

    private struct Undecodable: Error, CustomStringConvertible {
        let line: Int, reason: FieldCodingError
        var description: String {
            switch reason {
            case .wrongLength(let count): return "line \(line): \(count) data bytes; an ADASIS v2 frame has 8"
            case .unsupportedMessageType(let type): return "line \(line): message type \(type) has no ADASIS v2 layout"
            default: return "line \(line): \(reason)"
            }
        }
    }

    private func describe(_ record: CandumpRecord, line: Int, order: ByteOrder) throws -> String {
        let expected = Self.defaultIdentifiers[record.frame.identifier.value]
        guard anyID || (expected != nil && !record.frame.identifier.isExtended) else {
            throw UnknownIdentifier(line: line, identifier: record.frame.identifier)
        }
        let type: MessageType, fields: [String: UInt64]
        do {
            (type, fields) = try FieldPacking.unpack(record.frame.data, byteOrder: order)
        } catch {
            throw Undecodable(line: line, reason: error)
        }
        let ordered = (MessageLayout.fields(of: type) ?? []).filter { !$0.isReserved && $0.name != "MessageType" }.map(
            \.name)
        if json {
            var object: [String: Any] = [
                "time": record.timestampSeconds, "id": record.frame.identifier.description,
                "type": "\(type)",
            ]
            for name in ordered { object[name] = fields[name, default: 0] }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        var text = String(format: "%.6f %@ %@", record.timestampSeconds, record.frame.identifier.description, "\(type)")
        for name in ordered {
            let value = fields[name, default: 0]
            text += " \(name)=\(value)\(physical(name, value, fields))"
        }
        return text
    }

    /// A physical reading for fields whose coding the codec knows (`ValueCoding`; conventions in `Docs/adasis-conventions.md`).
    private func physical(_ name: String, _ raw: UInt64, _ fields: [String: UInt64]) -> String {
        let profile = fields["ProfileType"]
        let isLong = fields["Value"] != nil
        switch name {
        case "Offset": return raw == 8191 ? "(invalid)" : "m"
        case "PathIndex", "SubPathIndex": return Self.pathIndexMeaning(raw)
        case "EffectiveSpeedLimit":
            let units = "km/h"
            guard let limit = ValueCoding.speedLimit(code: UInt8(raw)) else { return raw == 0 ? "(unknown)" : "(N/A)" }
            return limit.isInfinite ? (raw == 30 ? "(unlimited)" : "(>150 \(units))") : "(≤\(Int(limit)) \(units))"
        case "PositionProbability", "RelativeProbability":
            return ValueCoding.probabilityPercent(code: UInt8(raw)).map { String(format: "(%.0f %%)", $0) }
                ?? (raw == 0 ? "(unknown)" : "(N/A)")
        case "PositionAge":
            guard let age = ValueCoding.positionAgeMilliseconds(code: UInt16(raw)) else { return "(invalid)" }
            return age.isFinite ? "(\(Int(age)) ms)" : "(>2545 ms)"
        case "Speed":
            return ValueCoding.speed(code: UInt16(raw)).map { String(format: "(%.1f m/s)", $0) } ?? "(invalid)"
        case "RelativeHeading", "TurnAngle":
            return ValueCoding.angleDegrees(code: UInt8(raw)).map { String(format: "(%.0f°)", $0) }
                ?? (raw == 254 ? "(unknown)" : "(invalid)")
        case "MapVersionYear":
            return ValueCoding.mapVersionYear(code: UInt8(raw)).map { "(\($0))" } ?? "(N/A)"
        case "Tunnel", "Bridge", "BuiltUpArea", "DividedRoad", "ComplexIntersection", "PartOfCalculatedRoute":
            return ["(no)", "(yes)", "(unknown)", "(N/A)"][Int(raw & 3)]
        case "Value0", "Value1":
            if name == "Value1", profile == 18 || profile == 19,
                fields["Value0"].map({ RoadObjectWireCode.type(UInt16(truncatingIfNeeded: $0)) }) == .hazard
            {
                return raw == 1023
                    ? "(hazard kind not stated)"
                    : "(hazard \(HazardKind(rawValue: UInt16(truncatingIfNeeded: raw))?.osmValue ?? "kind unknown"))"
            }
            if name == "Value1", fields["Distance1"] == 0, profile != 16, profile != 19 { return "(unused)" }
            switch profile {
            case 1?:
                guard let c = ValueCoding.curvature(code: UInt16(raw)) else { return "(invalid)" }
                return c == 0
                    ? "(straight)" : String(format: "(%+.5f 1/m, R %.0f m %@)", c, 1 / abs(c), c > 0 ? "right" : "left")
            case 3?, 4?:
                return ValueCoding.slopePercent(code: UInt16(raw)).map { String(format: "(%+.1f %%)", $0) }
                    ?? "(unknown)"
            case 16?:
                if name == "Value1" { return raw == 1023 ? "(limit unknown)" : "(\(raw) km/h enforced)" }
                return [
                    "(camera type unknown)", "(fixed speed camera)", "(mobile speed camera)", "(red-light camera)",
                    "(average-speed zone)", "(restriction camera)",
                ][min(Int(raw), 5)]
            case 17?:
                return "(traffic signals)"
            case 21?:
                return "(\(ValueCoding.trafficSpeed(code: UInt16(truncatingIfNeeded: raw))))"
            case 18?, 19?, 20?:
                if name == "Value1" {
                    guard profile == 19 else { return "" }
                    return raw == 1023 ? "(no enforced speed)" : "(\(raw) km/h enforced)"
                }
                return RoadObjectWireCode.type(UInt16(truncatingIfNeeded: raw)).map { "(\($0.rawValue))" }
                    ?? "(object type unknown)"
            default:
                return ""
            }
        case "Value" where isLong:
            switch profile {
            case 1?:
                return ValueCoding.longitudeDegrees(code: UInt32(raw)).map { String(format: "(%.7f° E)", $0) }
                    ?? "(N/A)"
            case 2?:
                return ValueCoding.latitudeDegrees(code: UInt32(raw)).map { String(format: "(%.7f° N)", $0) } ?? "(N/A)"
            case 7?: return "(OSM way \(raw))"
            default: return ""
            }
        case "ProfileType":
            return Self.profileTypeName(raw, long: isLong)
        default: return ""
        }
    }

    private static func pathIndexMeaning(_ raw: UInt64) -> String {
        switch raw {
        case 0: return "(unknown)"
        case 1: return "(not in digitised area)"
        case 2: return "(not on road)"
        case 3: return "(not calibrated)"
        case 4: return "(current link)"
        case 5: return "(stub only)"
        case 6: return "(continuation)"
        default: return ""
        }
    }

    private static func profileTypeName(_ raw: UInt64, long: Bool) -> String {
        if long {
            switch raw {
            case 1: return "(longitude)";
            case 2: return "(latitude)";
            case 7: return "(link identifier)";
            default: return ""
            }
        }
        switch raw {
        case 1: return "(curvature)"
        case 3: return "(slope step)"
        case 4: return "(slope linear)"
        case 16: return "(safety camera)"
        case 17: return "(traffic signals)"
        case 18: return "(road object)"
        case 19: return "(road object zone start)"
        case 20: return "(road object zone end)"
        case 21: return "(traffic speed)"
        default: return ""
        }
    }
}
