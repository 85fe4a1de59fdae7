import ArgumentParser
import RoadMapImport

/// `adasis map …`: build and inspect map files.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Build a map file from OpenStreetMap data and inspect it.",
        discussion: """
            A map file is an SQLite database of tiles that the matcher and horizon engine read on \
            the head unit. Build it once from an OSM extract:

              adasis map import Data/helsinki.osm.pbf -o helsinki.map --country FI
              adasis map info helsinki.map
              adasis map export-geojson helsinki.map -o helsinki.geojson
            """,
        subcommands: [MapImportCommand.self, MapInfoCommand.self, MapExportGeoJSONCommand.self])
}
