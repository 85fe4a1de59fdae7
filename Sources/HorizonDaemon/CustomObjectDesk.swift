import Foundation
import Horizon
import RoadMap
import RoadMapStore
import RouteBus

/// Carries out the custom-object interface's requests (`org.adasis.Horizon1.Objects`) on the store
/// beside the daemon's map (`MAP.objects`), as `adasis objects` does from the command line: a
/// GeoJSON Feature is read, matched to the map's roads and stored in one transaction; a refused
/// request leaves the store's file byte for byte as it was.
struct CustomObjectDesk {
    /// The map file's path (the store is `path + ".objects"`).
    let mapPath: String
    /// The map objects are matched on (without the custom objects laid over it).
    let map: any RoadNetwork

    /// The store's path.
    var storePath: String { CustomObjectStore.path(forMap: mapPath) }

    /// Does `request`; `changed` tells whether the stored objects changed (the horizon must then
    /// read them again).
    func perform(_ request: ObjectRequest) -> (result: Result<ObjectReply, ObjectRequestError>, changed: Bool) {
        do throws(ObjectRequestError) {
            switch request {
            case .add(let feature):
                let (id, pieces) = try add(feature)
                return (.success(.added(id: id, pieces: pieces)), true)
            case .remove(let id):
                guard FileManager.default.fileExists(atPath: storePath) else { throw Self.error(.unknownID(id)) }
                try withStore(create: false) { (store) throws(CustomObjectStoreError) in try store.remove(id: id) }
                return (.success(.removed), true)
            case .clear:
                guard FileManager.default.fileExists(atPath: storePath) else {
                    return (.success(.cleared(count: 0)), false)
                }
                let count = try withStore(create: false) { (store) throws(CustomObjectStoreError) in
                    try store.removeAll()
                }
                return (.success(.cleared(count: count)), count > 0)
            case .list:
                guard FileManager.default.fileExists(atPath: storePath) else { return (.success(.objects([])), false) }
                let stored = try withStore(create: false) { (store) throws(CustomObjectStoreError) in
                    try store.objects()
                }
                return (.success(.objects(stored.map(Self.summary))), false)
            }
        } catch {
            return (.failure(error), false)
        }
    }

    private func add(_ feature: String) throws(ObjectRequestError) -> (String, [CustomObjectPiece]) {
        let object: CustomObject
        do { object = try CustomObject(geoJSON: Data(feature.utf8)) } catch {
            throw ObjectRequestError(.malformedGeoJSON, "\(error)")
        }
        let pieces: [CustomObjectPiece]
        do { pieces = try CustomObjectMatcher(network: map).match(object) } catch {
            if case .mapUnreadable = error {
                throw ObjectRequestError(.mapUnreadable, "\(object.id): \(error)")
            }
            throw ObjectRequestError(.notMatched, "\(object.id): not matched to \(mapPath): \(error)")
        }
        try withStore(create: true) { (store) throws(CustomObjectStoreError) in
            try store.add(object, pieces: pieces)
        }
        return (object.id, pieces)
    }

    /// Opens the store (creating an empty one when `create` and there is none) and does `body`
    /// with it; the store's errors become the interface's.
    @discardableResult
    private func withStore<T>(create: Bool, _ body: (CustomObjectStore) throws(CustomObjectStoreError) -> T)
        throws(ObjectRequestError) -> T
    {
        do { return try body(try CustomObjectStore(path: storePath, create: create)) } catch { throw Self.error(error) }
    }

    private static func error(_ error: CustomObjectStoreError) -> ObjectRequestError {
        switch error {
        case .duplicateID: ObjectRequestError(.duplicateID, "\(error)")
        case .unknownID: ObjectRequestError(.unknownID, "\(error)")
        case .notAStore, .database: ObjectRequestError(.storeFailed, "\(error)")
        }
    }

    private static func summary(_ stored: StoredCustomObject) -> ObjectSummary {
        let geometry =
            switch stored.object.geometry {
            case .point: "point"
            case .line: "line"
            case .polygon: "polygon"
            }
        return ObjectSummary(id: stored.object.id, geometry: geometry, pieces: stored.pieces)
    }
}
