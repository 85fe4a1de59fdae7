import ADASISProvider
import ADASISv2
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
        var bus: ViewBusLog?
    }

    /// Runs the drive of `session` through the whole pipeline, as `adasis replay` does (default
    /// messages), and keeps every fix's document: the horizon as `adasis horizon` computes it and
    /// what the provider had sent up to the fix.
    static func make(session: inout DriveSession) throws -> ReplayTimeline {
        var provider = ProviderConfiguration()
        provider.roadObjectTypes = session.horizon.roadObjectTypes
        provider.metaData = MetaDataMessage(map: session.map.metadata)
        provider.places = PlaceCodes(map: session.map.metadata)
        provider.digitisedArea = session.map.metadata.boundingBox.count == 4 ? session.map.metadata.boundingBox : nil
        let pipeline = try HorizonPipeline(
            network: session.network, matcher: session.matcher, horizon: session.horizon, provider: provider)
        let engine = pipeline.engine
        try engine.setRoute(session.route)
        var tracker = RoadObjectTracker()
        var documents: [(time: Double, document: Document)] = []
        var sent: [ProviderFrame] = []
        var failure: (any Error)?
        var routes = session
        try pipeline.replay(
            session.trace.fixes, matcherResets: Set(session.trace.resets.map(\.fixIndex)),
            onFix: { fix, result, _ in
                guard failure == nil else { return }
                do {
                    try routes.follow(result, engine: engine)
                    if routes.trafficObjectsChanged { pipeline.provider.contentChanged(tree: engine.tree) }
                    let objects = engine.tree.mainPathID.map(engine.roadObjects(on:)) ?? []
                    let events = tracker.update(mainPathObjects: objects, vehicleOffset: engine.vehicleOffset)
                    var snapshot = HorizonSnapshot(result: result, engine: engine, map: routes.map, withQueries: true)
                    snapshot.describeObjects(objects, events: events, vehicle: engine.vehicleOffset)
                    let features = try HorizonFeatures.collection(
                        result: result, fix: GeoPoint(latitude: fix.latitude, longitude: fix.longitude),
                        engine: engine, network: routes.network)
                    // The bus log holds the frames of the ticks before this fix (the tick at the
                    // fix's own time runs after it).
                    documents.append(
                        (
                            fix.time,
                            Document(
                                time_s: snapshot.time_s, fix: [fix.longitude, fix.latitude], speed_mps: fix.speed,
                                heading_deg: fix.heading, snapshot: snapshot, features: features,
                                bus: ViewBusLog(
                                    time: fix.time, frames: sent[...], counters: pipeline.provider.counters))
                        ))
                } catch { failure = error }
            },
            frame: { sent.append($0) })
        if let failure { throw failure }
        session = routes
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ReplayTimeline(
            frames: try documents.map { time, document in
                ReplayTimeline.Frame(
                    time: time, longitude: document.fix[0], latitude: document.fix[1],
                    document: try encoder.encode(document))
            })
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
