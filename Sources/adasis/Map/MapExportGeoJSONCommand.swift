import ArgumentParser
import Foundation
import RoadMap
import RoadMapStore

/// `adasis map export-geojson FILE`.
struct MapExportGeoJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-geojson",
        abstract: "Export a map's links with their attributes, cameras and signals as GeoJSON.",
        discussion: "Open the result in QGIS, geojson.io or any GIS viewer to check the import.")

    @Argument(help: "The map file.")
    var file: String

    @Option(name: [.short, .customLong("output")], help: "Write to this file (atomically) instead of standard output.")
    var output: String?

    func run() throws {
        do {
            let map = try MapFile(path: file)
            var links: [RoadLink] = []
            for key in try map.tileKeys() { links += try map.tile(key).links }
            let text = GeoJSONExport.collection(of: links)
            if let output {
                try AtomicFile.replace(output, with: Array(text.utf8))
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch {
            printToStandardError("adasis map export-geojson: \(error)")
            throw ExitCode.failure
        }
    }
}
