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
        var routes: RouteState
    }

    /// The route session at a fix: the active route and the pending proposal, by their ids in
    /// `/route.geojson`.
    struct RouteState: Encodable {
        var active: Int?
        var proposal: Int?
        var proposal_reason: String?
        var time_saved_s: Double?
    }

    /// Runs the drive of `session` through the whole pipeline, as `adasis replay` does (default
    /// messages), and keeps every fix's document: the horizon as `adasis horizon` computes it and
    /// what the provider had sent up to the fix.
    /// Also returns every route that was active or proposed during the drive, as GeoJSON (see
    /// ``routeFeatures(_:kind:id:network:)``).
    static func make(session: inout DriveSession) throws -> (timeline: ReplayTimeline, routes: Data) {
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
        var previousFixTime: Double?
        var documents: [(time: Double, document: Document)] = []
        var sent: [ProviderFrame] = []
        var failure: (any Error)?
        var routes = session
        var routeFeatures: [GeoJSONFeature] = []
        var drawn = Set<String>()
        try pipeline.replay(
            session.trace.fixes, matcherResets: Set(session.trace.resets.map(\.fixIndex)),
            onFix: { fix, result, _ in
                guard failure == nil else { return }
                do {
                    try routes.follow(result, engine: engine)
                    if routes.trafficObjectsChanged { pipeline.provider.contentChanged(tree: engine.tree) }
                    let active = routes.routes?.active
                    let proposal = routes.routes?.proposal
                    for (kind, id, links) in [
                        ("route", active?.id, active?.links), ("proposal", proposal?.id, proposal?.links),
                    ]
                    where id != nil && drawn.insert("\(kind) \(id!)").inserted {
                        routeFeatures += try Self.routeFeatures(
                            links ?? [], kind: kind, id: id!, network: routes.network)
                    }
                    let routeState = RouteState(
                        active: active?.id, proposal: proposal?.id, proposal_reason: proposal?.reason.rawValue,
                        time_saved_s: proposal.map { ($0.timeSaved * 10).rounded() / 10 })
                    let objects = engine.tree.mainPathID.map(engine.roadObjects(on:)) ?? []
                    // As `adasis horizon` does: what was driven since the last fix, or got before a U-turn.
                    let driven = (fix.speed ?? 0) * max(0, fix.time - (previousFixTime ?? fix.time))
                    previousFixTime = fix.time
                    let events = tracker.update(mainPathObjects: objects, after: engine, driven: driven)
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
                                    time: fix.time, frames: sent[...], counters: pipeline.provider.counters),
                                routes: routeState)
                        ))
                } catch { failure = error }
            },
            frame: { sent.append($0) })
        if let failure { throw failure }
        session = routes
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let timeline = ReplayTimeline(
            frames: try documents.map { time, document in
                ReplayTimeline.Frame(
                    time: time, longitude: document.fix[0], latitude: document.fix[1],
                    document: try encoder.encode(document))
            })
        return (timeline, try GeoJSONFeatureCollection(features: routeFeatures).encoded())
    }

    /// A route's links as GeoJSON lines: `kind` `route` (active at some time) or `proposal`
    /// (proposed at some time), `route_id`, `link`. A route that was first proposed, then taken,
    /// appears as both; the page shows each by the ids of the fix's ``RouteState``.
    static func routeFeatures(_ links: [DirectedLink], kind: String, id: Int, network: some RoadNetwork) throws
        -> [GeoJSONFeature]
    {
        try links.map { link in
            let road = try network.link(link.link)
            return GeoJSONFeature(
                geometry: .line(link.direction == .forward ? road.geometry : road.geometry.reversed()),
                properties: [
                    "kind": .string(kind), "route_id": .integer(Int64(id)), "link": .string(link.description),
                ])
        }
    }
}
