import DaemonConfiguration
import Foundation
import Horizon
import RoadMap
import RoadMapStore

extension RunDaemon {
    /// `map` with the custom objects of `MAP.objects` (`adasis objects`) laid over it, or `map`
    /// alone when there are none. Read when the daemon starts and when a reload opens another map.
    /// - Throws: ``ConfigurationError`` on the `map.path` key when the object store is unreadable.
    static func withCustomObjects(_ map: MapFile, _ configuration: DaemonConfiguration, file: String)
        throws(ConfigurationError) -> any RoadNetwork
    {
        let path = CustomObjectStore.path(forMap: configuration.mapPath)
        guard FileManager.default.fileExists(atPath: path) else { return map }
        do {
            let stored = try CustomObjectStore(path: path, create: false).objects()
            guard !stored.isEmpty else { return map }
            return CustomObjectOverlay(
                base: map, objects: stored.map { PlacedCustomObject(number: $0.number, pieces: $0.pieces) })
        } catch {
            throw ConfigurationError(
                file: file, key: "map.path", line: nil,
                problem: "\(error); fix or remove \(path) (adasis objects clear --map \(configuration.mapPath))")
        }
    }
}
