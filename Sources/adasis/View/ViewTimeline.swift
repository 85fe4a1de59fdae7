import Foundation
import Horizon
import HorizonPicture
import MapView
import RoadMap

/// The replay's horizon at every fix, as `adasis view` serves it: for each fix the JSON of
/// `adasis horizon --at` (with the upcoming speed-limit change, curve, camera, signals, tunnel)
/// and the horizon's map features.
enum ViewTimeline {
    /// One `/horizon.json` document.
    struct Document: Encodable {
        var time_s: Double
        var fix: [Double]
        var speed_mps: Double?
        var heading_deg: Double?
        var snapshot: HorizonSnapshot
        var features: GeoJSONFeatureCollection
    }

    /// Runs the drive of `session` as `adasis horizon` does and keeps every fix's document.
    static func make(session: inout DriveSession) throws -> ReplayTimeline {
        let engine = try session.makeEngine()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var tracker = RoadObjectTracker()
        var frames: [ReplayTimeline.Frame] = []
        for (index, fix) in session.trace.fixes.enumerated() {
            if session.trace.startsAfterReset(index) { session.matcher.reset() }
            let result = try session.matcher.match(fix)
            _ = try engine.update(result)
            try session.follow(result, engine: engine)
            let objects = engine.tree.mainPathID.map(engine.roadObjects(on:)) ?? []
            let events = tracker.update(mainPathObjects: objects, vehicleOffset: engine.vehicleOffset)
            var snapshot = HorizonSnapshot(result: result, engine: engine, map: session.map, withQueries: true)
            snapshot.describeObjects(objects, events: events, vehicle: engine.vehicleOffset)
            let point = GeoPoint(latitude: fix.latitude, longitude: fix.longitude)
            let features = try HorizonFeatures.collection(
                result: result, fix: point, engine: engine, network: session.network)
            let document = Document(
                time_s: snapshot.time_s, fix: [fix.longitude, fix.latitude], speed_mps: fix.speed,
                heading_deg: fix.heading, snapshot: snapshot, features: features)
            frames.append(
                ReplayTimeline.Frame(
                    time: fix.time, longitude: fix.longitude, latitude: fix.latitude,
                    document: try encoder.encode(document)))
        }
        return ReplayTimeline(frames: frames)
    }

    /// The route's links as GeoJSON lines (`kind` `route`, `link`), or an empty collection.
    static func route(_ links: [DirectedLink]?, network: some RoadNetwork) throws -> Data {
        var features: [GeoJSONFeature] = []
        for link in links ?? [] {
            let road = try network.link(link.link)
            features.append(
                GeoJSONFeature(
                    geometry: .line(link.direction == .forward ? road.geometry : road.geometry.reversed()),
                    properties: ["kind": .string("route"), "link": .string(link.description)]))
        }
        return try GeoJSONFeatureCollection(features: features).encoded()
    }
}
