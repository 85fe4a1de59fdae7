import ADASISProvider
import ADASISv2
import Foundation
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
}
