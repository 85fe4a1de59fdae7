import ArgumentParser
import Foundation
import RoadMap
import RoadMapStore

/// `adasis map info FILE`.
struct MapInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a map file's metadata, counts and attribute coverage.")

    @Argument(help: "The map file.")
    var file: String

    @Option(
        help:
            "The legal filter to summarise the map's safety locations with (a TOML table as Data/safety-location-rules.toml documents). Default: that shipped table."
    )
    var safetyRules: String?

    func run() throws {
        let rules: SafetyLocationRules
        do {
            rules = try SafetyLocationRulesOption.load(safetyRules)
        } catch {
            printToStandardError("adasis map info: \(error)")
            throw ExitCode.failure
        }
        do {
            let map = try MapFile(path: file)
            let statistics = try MapStatistics(map: map)
            let meta = map.metadata
            print("map:          \(file) (format \(meta.formatVersion))")
            print(
                "source:       \(meta.sourceFile)"
                    + (meta.sourceTimestamp.map { " (OSM data of \(Date(timeIntervalSince1970: TimeInterval($0))))" }
                        ?? ""))
            if let year = meta.mapVersionYear, let quarter = meta.mapVersionQuarter {
                print("map version:  \(year) Q\(quarter)")
            }
            print(
                "countries:    "
                    + meta.countries.enumerated().map { index, code in
                        code
                            + (meta.countryLinkCounts.flatMap { index < $0.count ? " (\(links($0[index])))" : nil }
                                ?? "")
                    }.joined(separator: ", "))
            if let regions = meta.regions {
                let unplaced =
                    meta.regionLinkCounts.map { "; \(links(statistics.links - $0.reduce(0, +))) in no region" } ?? ""
                print(
                    "regions:      "
                        + regions.enumerated().map { index, code in
                            "\(index + 1) = \(code)"
                                + (meta.regionLinkCounts.flatMap { index < $0.count ? " (\(links($0[index])))" : nil }
                                    ?? "")
                        }.joined(separator: ", ") + unplaced)
            }
            if meta.boundingBox.count == 4 {
                print(
                    "bounding box: south \(meta.boundingBox[0]), west \(meta.boundingBox[1]), north \(meta.boundingBox[2]), east \(meta.boundingBox[3])"
                )
            }
            print("tiles:        \(statistics.tiles)")
            print("links:        \(statistics.links), \(km(statistics.length)) km")
            for highway in HighwayClass.allCases {
                guard let length = statistics.lengthByClass[highway] else { continue }
                print(
                    "  \(String(describing: highway).padding(toLength: 14, withPad: " ", startingAt: 0)) \(km(length)) km"
                )
            }
            print("coverage (share of drivable direction-length / of length):")
            let directions = max(statistics.directionLength, 1e-9)
            for kind in [SpeedLimitKind.explicit, .implicit, .timeDependent, .unknown] {
                print(
                    "  speed limit \(String(describing: kind).padding(toLength: 13, withPad: " ", startingAt: 0)) \(percent((statistics.directionLengthBySpeedKind[kind] ?? 0) / directions))"
                )
            }
            print("  speed limit value unknown  \(percent(statistics.directionLengthWithUnknownSpeed / directions))")
            let length = max(statistics.length, 1e-9)
            print("  lanes known              \(percent(statistics.lengthWithLanes / length))")
            print("  built-up area known      \(percent(statistics.lengthWithBuiltUpArea / length))")
            print("  slope known              \(percent(statistics.lengthWithSlope / length))")
            print("  one-way                  \(percent(statistics.onewayLength / length))")
            print("  divided road             \(percent(statistics.dividedLength / length))")
            print("  tunnel                   \(km(statistics.tunnelLength)) km")
            print("  bridge                   \(km(statistics.bridgeLength)) km")
            print(
                "features:     \(statistics.safetyCameras) safety cameras, \(statistics.trafficSignalFeatures) traffic-signal placements, \(statistics.turnRestrictions) turn restrictions"
            )
            let alpha2ByNumeric = Dictionary(
                meta.countries.compactMap { code in (try? Country(alpha2: code)).map { ($0.numericCode, code) } },
                uniquingKeysWith: { first, _ in first })
            print("road objects (per country and type):")
            for country in statistics.roadObjects.keys.sorted() {
                let counts = statistics.roadObjects[country]!
                let name = country == 0 ? "unknown" : alpha2ByNumeric[country] ?? "\(country)"
                print(
                    "  \(name): "
                        + counts.keys.sorted().map { "\(counts[$0]!) \($0.rawValue)" }.joined(separator: ", "))
            }
            print("safety locations under the legal filter (\(safetyRules ?? "shipped table"), country rows):")
            for line in LegalFilterSummary.lines(
                roadObjects: statistics.roadObjects, names: alpha2ByNumeric, rules: rules)
            {
                print("  " + line)
            }
            print("import:")
            print(MapReportText.lines(meta.importReport).joined(separator: "\n"))
        } catch {
            printToStandardError("adasis map info: \(error)")
            throw ExitCode.failure
        }
    }

    private func links(_ count: Int) -> String { count == 1 ? "1 link" : "\(count) links" }
    private func km(_ metres: Double) -> String { String(format: "%.2f", metres / 1000) }
    private func percent(_ share: Double) -> String { String(format: "%5.1f %%", share * 100) }
}
