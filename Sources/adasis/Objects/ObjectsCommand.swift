import ArgumentParser
import Foundation
import Horizon
import RoadMap
import RoadMapStore

/// `adasis objects …`: the client's own road objects, stored beside a map.
struct ObjectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objects",
        abstract: "Add, remove and list your own road objects (user_defined) on a map.",
        discussion: """
            An object is a GeoJSON Feature with an id and a Point, LineString or Polygon geometry \
            (coordinates [longitude, latitude]). A point is matched to the nearest road, in both \
            directions or, with properties.heading (degrees), in the direction of travel it names; a \
            line to the stretch of road it follows, in the direction it is drawn; a polygon to every \
            part of a road inside it. Objects are kept in MAP.objects (SQLite, mode 0600) and appear \
            in `adasis horizon` and `adasis replay` on that map like the map's own objects (type \
            user_defined, named by their own id). `adasis run` reads them when it starts and on \
            SIGHUP; its D-Bus interface org.adasis.Horizon1.Objects changes them while it runs.

              adasis objects add --map helsinki.map school.geojson
              adasis objects list --map helsinki.map
              adasis objects remove --map helsinki.map school-1
              adasis objects clear --map helsinki.map
            """,
        subcommands: [Add.self, Remove.self, Clear.self, List.self])

    struct MapOption: ParsableArguments {
        @Option(help: "The map file (from `adasis map import`); objects are stored in MAP.objects.")
        var map: String

        func store(create: Bool) throws -> CustomObjectStore {
            try CustomObjectStore(path: CustomObjectStore.path(forMap: map), create: create)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Match a GeoJSON Feature to the map and store it.")

        @OptionGroup var options: MapOption

        @Argument(help: "A file holding one GeoJSON Feature, or - for standard input.")
        var feature: String

        func run() throws {
            let data: Data
            if feature == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let read = FileManager.default.contents(atPath: feature) else {
                    throw ValidationError("cannot read \(feature)")
                }
                data = read
            }
            let object: CustomObject
            do { object = try CustomObject(geoJSON: data) } catch { throw ObjectsFailure("\(feature): \(error)") }
            let map = try MapFile(path: options.map)
            let pieces: [CustomObjectPiece]
            do { pieces = try CustomObjectMatcher(network: map).match(object) } catch {
                throw ObjectsFailure("\(object.id): not matched to \(options.map): \(error)")
            }
            let number: Int64
            do { number = try options.store(create: true).add(object, pieces: pieces) } catch {
                throw ObjectsFailure("\(object.id): \(error)")
            }
            print("added \(object.id) (number \(number)): \(ObjectsCommand.describe(pieces))")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the object with this id.")

        @OptionGroup var options: MapOption

        @Argument(help: "The object's id.")
        var id: String

        func run() throws {
            do { try options.store(create: false).remove(id: id) } catch { throw ObjectsFailure("\(error)") }
            print("removed \(id)")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every object.")

        @OptionGroup var options: MapOption

        func run() throws {
            let path = CustomObjectStore.path(forMap: options.map)
            guard FileManager.default.fileExists(atPath: path) else {
                print("removed 0 objects")
                return
            }
            let count: Int
            do { count = try options.store(create: false).removeAll() } catch { throw ObjectsFailure("\(error)") }
            print("removed \(count) objects")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the stored objects: id, number, geometry and where each was matched.")

        @OptionGroup var options: MapOption

        func run() throws {
            guard FileManager.default.fileExists(atPath: CustomObjectStore.path(forMap: options.map)) else { return }
            let stored: [StoredCustomObject]
            do { stored = try options.store(create: false).objects() } catch { throw ObjectsFailure("\(error)") }
            for entry in stored {
                let kind =
                    switch entry.object.geometry {
                    case .point: "point"
                    case .line: "line"
                    case .polygon: "polygon"
                    }
                print("\(entry.object.id)\t\(entry.number)\t\(kind)\t\(describe(entry.pieces))")
            }
        }
    }

    /// Pieces as `L12+ 3.0–40.5 m, L13± 0.0–12.0 m` (+ forward, − backward, ± both).
    static func describe(_ pieces: [CustomObjectPiece]) -> String {
        pieces.map { piece in
            let sign = piece.direction.map { $0 == .forward ? "+" : "-" } ?? "±"
            return "\(piece.link)\(sign) " + String(format: "%.1f–%.1f m", piece.start, piece.end)
        }.joined(separator: ", ")
    }
}

/// A refused `adasis objects` command: the message, on standard error, exit status 1.
struct ObjectsFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
