import ADASISProvider
import ADASISv2
import Foundation
import GNSSSources
import RoadMap
import Testing
@testable import HorizonDaemon

/// The traffic speed (PROFILE SHORT 21, Docs/adasis-conventions.md) from the daemon's feed: sent
/// along the main path, rebuilt where the feed's links lie, kept over a reload, gone with the feed.
@Suite("daemon core: traffic speed on CAN")
struct DaemonTrafficSpeedTests {
    @Test("the flow's speed and the closure ride on PROFILE SHORT 21 where their objects are; no data elsewhere")
    func speedsOnCAN() throws {
        let sink = RecordingFrameSink()
        let configuration = try daemonConfiguration("[messages]\npreset = \"all\"\n")
        var loop = try SimulatedRunLoop(configuration, opener: ScriptedOpener([.success(sink)]))
        loop.run(from: 0, to: 2.5)
        #expect(loop.core.pipeline.provider.trafficSpeeds == nil, "no feed, no profile")
        let incident = #"[{"id": "closed-8", "iconCategory": 8, "links": ["L8+"]}]"#
        let flow = #"[{"links": ["L12+", "L13+"], "currentSpeed": 12, "freeFlowSpeed": 50}]"#
        let (outcome, effects) = loop.core.takeTrafficFeed(
            streetFeed(model: "m", flow: flow, incidents: incident), source: "feed.json", at: 2.6)
        #expect(outcome == .applied)
        loop.perform(effects)
        loop.run(from: 2.6, to: 6)

        var reconstructor = HorizonReconstructor()
        for frame in sink.accepted { try reconstructor.apply(payload: frame.data, time: 0) }
        let main = try #require(reconstructor.horizon.mainPath)
        let closure = try #require(main.objects.first { $0.code == 13 }?.start)
        let congestion = try #require(main.objects.first { $0.code == 15 }?.start)
        #expect(main.trafficSpeed(at: closure) == .closed && main.trafficSpeed(at: closure + 50) == .closed)
        #expect(main.trafficSpeed(at: closure + 150) == .noData && main.trafficSpeed(at: closure - 50) == .noData)
        #expect(main.trafficSpeed(at: congestion + 10) == .kilometresPerHour(12))
        #expect(main.trafficSpeed(at: congestion + 190) == .kilometresPerHour(12))
        #expect(main.trafficSpeedChanges.map(\.speed) == [.noData, .closed, .noData, .kilometresPerHour(12), .noData])

        // A reload builds a new pipeline: it sends the speeds too while [traffic] names a feed; a
        // reload without the section drops the traffic and the profile with it.
        let withFeed = try daemonConfiguration(
            "[messages]\npreset = \"all\"\n[traffic]\nfeed = \"/run/traffic.json\"\n")
        _ = loop.core.reload(withFeed, newMap: nil, gnss: .init(connected: true))
        let speeds = loop.core.pipeline.provider.trafficSpeeds?.speeds
        #expect(speeds?[DirectedLink(LinkID(12), .forward)] == .kilometresPerHour(12))
        #expect(speeds?[DirectedLink(LinkID(8), .forward)] == .closed && speeds?.count == 3)
        _ = loop.core.reload(configuration, newMap: nil, gnss: .init(connected: true))
        #expect(loop.core.pipeline.provider.trafficSpeeds == nil)
    }

    @Test(
        "a DATEX II publication is a feed too: its closure goes out as closed; a broken one is refused as malformed_xml"
    )
    func datexFeed() throws {
        var core = try DaemonCore(
            configuration: try daemonConfiguration("[messages]\npreset = \"all\"\n"), path: "test.toml", map: street(),
            metadata: streetMetadata, watchdogInterval: nil, at: 0)
        _ = core.receive(.init(fix: streetFix(0), receivedAt: 0.1))
        // The receiver's clock starts at 1000 s (1970-01-01T00:16:40Z); link 8 runs x = 700…800 m east.
        let start = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94)).unproject(x: 710, y: 0)
        let end = LocalProjection(origin: GeoPoint(latitude: 60.17, longitude: 24.94)).unproject(x: 790, y: 0)
        let publication = """
            <d2LogicalModel xmlns="http://datex2.eu/schema/2/2_0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            <payloadPublication xsi:type="SituationPublication"><publicationTime>1970-01-01T00:16:40Z</publicationTime>
            <situation id="s"><situationRecord xsi:type="RoadOrCarriagewayOrLaneManagement" id="closed">
            <groupOfLocations xsi:type="Linear"><linearExtension><linearByCoordinatesExtension>
            <linearCoordinatesStartPoint><pointCoordinates><latitude>\(start.latitude)</latitude><longitude>\(start.longitude)</longitude></pointCoordinates></linearCoordinatesStartPoint>
            <linearCoordinatesEndPoint><pointCoordinates><latitude>\(end.latitude)</latitude><longitude>\(end.longitude)</longitude></pointCoordinates></linearCoordinatesEndPoint>
            </linearByCoordinatesExtension></linearExtension></groupOfLocations>
            <roadOrCarriagewayOrLaneManagementType>roadClosed</roadOrCarriagewayOrLaneManagementType>
            </situationRecord></situation></payloadPublication></d2LogicalModel>
            """
        #expect(core.takeTrafficFeed(Data(publication.utf8), source: "f.xml", at: 0.2).outcome == .applied)
        #expect(core.pipeline.provider.trafficSpeeds?.speeds[DirectedLink(LinkID(8), .forward)] == .closed)
        #expect(core.takeTrafficFeed(Data(publication.prefix(200).utf8), source: "f.xml", at: 0.3).outcome == .refused)
        let metrics = core.snapshot(at: 1, gnss: .init(connected: true))
        #expect(metrics.trafficFeedsRefused == ["malformed_xml": 1] && metrics.trafficFeedsApplied == 1)
        #expect(core.pipeline.provider.trafficSpeeds?.speeds[DirectedLink(LinkID(8), .forward)] == .closed)
    }
}
