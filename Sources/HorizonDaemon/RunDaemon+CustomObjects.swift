import DaemonConfiguration
import Foundation
import Horizon
import RoadMap
import RoadMapStore
import RouteBus

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
                base: map,
                objects: stored.map { PlacedCustomObject(number: $0.number, id: $0.object.id, pieces: $0.pieces) })
        } catch {
            throw ConfigurationError(
                file: file, key: "map.path", line: nil,
                problem: "\(error); fix or remove \(path) (adasis objects clear --map \(configuration.mapPath))")
        }
    }

    /// Carries out the custom-object calls that arrived (D-Bus), then, when the stored objects
    /// changed, hands the map with the new objects to the core before the callers hear back: by
    /// the time a caller has its answer, the next tick sends the horizon with the change.
    func serveObjectCalls() {
        guard let routeBus else { return }
        let calls = routeBus.collectObjectCalls()
        guard !calls.isEmpty else { return }
        let desk = CustomObjectDesk(mapPath: core.configuration.mapPath, map: map)
        var answers: [(Int, Result<ObjectReply, ObjectRequestError>)] = []
        var changed = false
        for call in calls {
            let (result, didChange) = desk.perform(call.request)
            answers.append((call.id, result))
            changed = changed || didChange
            if case .failure(let error) = result { logger.info("D-Bus: custom-object call refused: \(error)") }
        }
        if changed {
            do {
                perform(
                    core.useCustomObjects(
                        try Self.withCustomObjects(map, core.configuration, file: core.configurationPath)))
            } catch {
                logger.error(
                    "custom objects changed but cannot be read back: \(error); the horizon keeps the previous ones")
            }
        }
        for (id, result) in answers { routeBus.answerObjectCall(id, with: result) }
    }
}
