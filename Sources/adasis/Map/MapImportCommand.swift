import ArgumentParser
import Foundation
import RoadMap
import RoadMapImport

/// `adasis map import INPUT.osm.pbf -o OUTPUT.map`.
struct MapImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an OSM PBF extract into a map file.",
        discussion: """
            Keeps the roads cars drive on, splits them at junctions and derives per direction the \
            attributes driver assistance needs (speed limits with legal defaults, lanes, tunnels, \
            bridges, cameras, traffic signals, turn restrictions, curvature, slope from incline or SRTM tiles, country and region). \
            Ways cut by the extract's bounding box keep their longest run of present nodes; what \
            was cut or skipped is reported. The map is written to a temporary file and renamed \
            only on success.
            """)

    @Argument(help: "The OpenStreetMap extract (.osm.pbf).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "The map file to write (replaced atomically).")
    var output: String

    @Option(
        help:
            "ISO 3166-1 alpha-2 code of the country of roads outside every complete country boundary of the extract (legal default speeds, driving side), e.g. FI. Needed for clipped extracts, which rarely hold a whole country."
    )
    var country: String?

    @Option(
        help: "Road classes to keep, comma-separated OSM highway values (default: motorway … service and their links).")
    var roads: String?

    @Option(
        help:
            "A directory of SRTM .hgt elevation tiles (N60E024.hgt, …; 3\" or 1\"): slope for links without an OSM incline tag, sampled every ~30 m and smoothed over ~210 m."
    )
    var srtm: String?

    @Option(help: "Built-up area to assume where tags do not tell: urban or rural.")
    var unknownArea: String = "urban"

    func run() throws {
        let options: RoadGraphOptions
        do {
            var classes = Set(HighwayClass.allCases)
            if let roads {
                classes = []
                for value in roads.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    guard let highway = HighwayClass(osmValue: value) else {
                        throw ValidationError(
                            "--roads: '\(value)' is not a road class; use OSM highway values such as motorway,primary,residential,service"
                        )
                    }
                    classes.insert(highway)
                }
            }
            guard let area = AreaAssumption(rawValue: unknownArea) else {
                throw ValidationError("--unknown-area must be urban or rural, got '\(unknownArea)'")
            }
            options = RoadGraphOptions(
                selection: RoadSelection(classes: classes),
                country: try country.map { code throws(CountryError) in try Country(alpha2: code) },
                unknownArea: area)
        } catch let error as CountryError {
            throw ValidationError("--country: \(error)")
        }
        let display = ProgressDisplay(enabled: isatty(STDERR_FILENO) == 1)
        let started = Date()
        do {
            let elevation = try srtm.map { directory throws(ElevationError) in try ElevationModel(directory: directory)
            }
            let metadata = try MapImport.run(input: input, output: output, options: options, elevation: elevation) {
                display.show($0)
            }
            display.finish()
            let seconds = Date().timeIntervalSince(started)
            let report = metadata.importReport
            let objects = report.nodesRead + report.waysRead + report.relationsRead
            print(
                "imported \(input) → \(output) in \(String(format: "%.2f", seconds)) s (\(Int(Double(objects) / max(seconds, 1e-6))) objects/s)"
            )
            print(MapReportText.lines(report).joined(separator: "\n"))
        } catch {
            display.finish()
            printToStandardError("adasis map import: \(error)")
            throw ExitCode.failure
        }
    }
}

/// A one-line progress display on a terminal; silent otherwise.
final class ProgressDisplay {
    private let enabled: Bool
    private let started = Date()
    private var lastShown = Date.distantPast

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: MapImportProgress) {
        guard enabled, Date().timeIntervalSince(lastShown) > 0.2 || progress.phase != .reading else { return }
        lastShown = Date()
        let seconds = max(Date().timeIntervalSince(started), 1e-3)
        let fraction = progress.fractionRead
        var line = "\(progress.phase.rawValue)"
        if progress.phase == .reading {
            line += " (pass \(progress.pass) of \(progress.passes)): \(Int(100 * fraction)) %"
            if progress.objects > 0 { line += ", \(progress.objects) objects" }
            // Passes are taken as equal work; the estimate leaves out building and writing.
            if fraction > 0.02 { line += ", reading done in ≈ \(Int((seconds / fraction - seconds).rounded())) s" }
        } else {
            line += ": \(progress.objects) objects, \(Int(Double(progress.objects) / seconds)) objects/s"
        }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}

/// The import report as aligned text lines.
enum MapReportText {
    static func lines(_ report: ImportReport) -> [String] {
        [
            "  read:        \(report.nodesRead) nodes, \(report.waysRead) ways, \(report.relationsRead) relations",
            "  roads:       \(report.roadWays) ways → \(report.links) links, \(String(format: "%.1f", report.totalLength / 1000)) km",
            "  clipped:     \(report.clippedWays) ways cut at the extract's edge (\(report.droppedNodeReferences) missing node references), \(report.waysWithoutGeometry) ways dropped (fewer than 2 nodes present)",
            "  skipped:     \(report.malformedTagValues) malformed tag values",
            "  restrictions: \(report.turnRestrictions) turn restrictions (\(report.unusableTurnRestrictions) unusable)",
            "  features:    \(report.safetyCameras) safety cameras (\(report.unplacedSafetyCameras) too far from a road), \(report.trafficSignals) traffic signals, \(report.averageSpeedZones ?? 0) average-speed zones (\(report.unroutedZones ?? 0) without a drive between their ends, kept as points), \(report.hazards ?? 0) hazards",
            "  divided:     \(report.dualCarriagewayLinks) links paired into dual carriageways",
        ]
            + (report.adminBoundariesUsed.map {
                [
                    "  boundaries:  \($0) complete admin boundaries used, \(report.incompleteAdminBoundaries ?? 0) cut by the extract"
                ]
            } ?? [])
            + (report.linksWithElevationSlope.map {
                [
                    "  elevation:   slope from SRTM tiles on \($0) links, \(report.linksWithoutElevation ?? 0) links without elevation data"
                ]
            } ?? [])
    }
}
