import ADASISv2
import ArgumentParser
import Foundation
import InputPolicy
import RoadMap
import RoadMapStore
import SocketCAN

/// `adasis reconstruct LOG`: what an ECU rebuilds from the frames.
struct ReconstructCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconstruct",
        abstract: "Rebuild the horizon from a candump log, as a receiving ECU would, and print it.",
        discussion: """
            Feeds every ADASIS v2 frame of the log (default identifiers, see Tools/adasis-v2.dbc) to \
            the reconstructor of the ADASISv2 library and prints the horizon at the end of the log, or \
            at --at seconds: META-DATA, the vehicle position, every path with its parent, branch \
            offset and content, and the reception counters (cyclic-counter gaps). --geojson prints \
            the paths as GeoJSON lines from their PROFILE LONG shape points (sent with --preset all).

              adasis replay --map helsinki.map Data/drives/kamppi.csv --candump kamppi.log
              adasis reconstruct kamppi.log --at 60
            """)

    @Argument(help: "The candump -L log, or - for standard input.")
    var log: String

    @Option(help: "Stop at this log time (seconds, as in the log's timestamps).")
    var at: Double?

    @Flag(
        help:
            "Print the paths as GeoJSON: from their longitude/latitude profile spots (sent with --preset all), or with --map from the OSM ways their link-identifier spots name."
    )
    var geojson = false

    @Option(help: "The map file, for --geojson of paths that carry link identifiers but no shape points.")
    var map: String?

    @Flag(help: "The frames' 8 bytes are byte-reversed (little-endian option).")
    var byteReversed = false

    @Flag(help: "Stop with an error at the first malformed line or frame instead of skipping and counting it.")
    var strict = false

    func run() throws {
        let text: String
        do {
            text =
                log == "-"
                ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                : try String(contentsOfFile: log, encoding: .utf8)
        } catch {
            printToStandardError("adasis reconstruct: cannot read \(log): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        // One pass in log order, so the skipped lines are reported as they come, each with its line.
        var skipped = SkippedRecords()
        let policy: BadRecordPolicy = strict ? .strict : .skip
        var reconstructor = HorizonReconstructor()
        let identifiers = CANIdentifierAssignment.defaults
        let byteOrder: ByteOrder = byteReversed ? .littleEndian : .bigEndian
        var records = 0, unknown = 0, number = 0
        var lastTime = 0.0, reachedAt = false
        do throws(BadRecordError) {
            for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                number += 1
                let parsed: CandumpRecord?
                do throws(CandumpParseError) {
                    parsed = try CandumpLog.parse(line: line, lineNumber: number)
                } catch {
                    try skipped.add(SkippedRecord(line: number, reason: "malformed line", error: error), policy: policy)
                    continue
                }
                guard let record = parsed else { continue }
                records += 1
                // Past --at, the rest of the log is only checked.
                if let at, record.timestampSeconds > at + 1e-9 { reachedAt = true }
                if reachedAt { continue }
                guard !record.frame.isErrorFrame, !record.frame.isRemoteTransmissionRequest,
                    let identifier = try? CANIdentifierAssignment.Identifier(
                        record.frame.identifier.value, isExtended: record.frame.identifier.isExtended),
                    identifiers.messageType(
                        forIdentifier: identifier, payload: record.frame.data, byteOrder: byteOrder) != nil
                else {
                    unknown += 1
                    continue
                }
                do throws(FieldCodingError) {
                    try reconstructor.apply(
                        payload: record.frame.data, byteOrder: byteOrder, time: record.timestampSeconds)
                } catch {
                    let frame = CandumpRecord.frameText(record.frame)
                    try skipped.add(
                        SkippedRecord(
                            line: number, reason: "undecodable frame",
                            detail: "frame \(frame) at \(record.timestampSeconds) s: \(error)"),
                        policy: policy)
                }
                lastTime = record.timestampSeconds
            }
        } catch {
            printToStandardError("adasis reconstruct: \(log): \(error)")
            throw ExitCode.failure
        }
        if !skipped.isEmpty { printToStandardError("adasis reconstruct: \(log): \(skipped)") }
        if geojson {
            var waysByID: [Int64: [[GeoPoint]]] = [:]
            if let map {
                do {
                    let file = try MapFile(path: map)
                    for key in try file.tileKeys() {
                        for link in try file.tile(key).links { waysByID[link.wayID, default: []].append(link.geometry) }
                    }
                } catch {
                    printToStandardError("adasis reconstruct: \(error)")
                    throw ExitCode.failure
                }
            }
            print(ReconstructedHorizonText.geoJSON(reconstructor.horizon, ways: waysByID))
        } else {
            print(
                "horizon at \(String(format: "%.3f", lastTime)) s (\(records) frames read, \(unknown) not ADASIS, \(reconstructor.undecodableFrames) undecodable)"
            )
            print(ReconstructedHorizonText.lines(reconstructor.horizon).joined(separator: "\n"))
        }
    }
}
