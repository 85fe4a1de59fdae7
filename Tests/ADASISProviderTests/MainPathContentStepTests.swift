import ADASISv2
import GNSS
import Horizon
import RoadMap
import Testing
@testable import ADASISProvider
import TestSupport

/// A straight street of 30 links of 100 m going east, a side road north at every junction and
/// traffic signals halfway along every link of the street.
private func signalledStreet() -> InMemoryRoadNetwork {
    var graph = PlaneRoadGraph()
    for i in 1...30 {
        let x = Double(i) * 100
        graph.add(UInt64(i), Int64(i - 1), Int64(i), [(x - 100, 0), (x, 0)], highway: .secondary) { link in
            link.name = "Main"
            link.features = [PointFeature(kind: .trafficSignals, offset: 50, direction: nil)]
        }
        graph.add(UInt64(100 + i), Int64(i), Int64(100 + i), [(x, 0), (x, 100)])
    }
    return graph.network
}

/// The main path's content goes out a link at a time (``ADASISProvider/mainPathFrontier(_:reach:sent:)``)
/// instead of a metre or two at every tick: what a receiver gets, and when, within bounds.
@Suite("main path content a link at a time")
struct MainPathContentStepTests {
    @Test(
        "SEGMENTs and STUBs when the send radius reaches them, a link's spots when it enters the link, none 50 m past it"
    )
    func linkAtATime() throws {
        var configuration = ProviderConfiguration()
        configuration.messages = MessageSelection(preset: .all)
        configuration.sendRadius = [250, 500, 500]
        let pipeline = try HorizonPipeline(network: signalledStreet(), provider: configuration)
        let projection = LocalProjection(origin: PlaneRoadGraph.origin)
        let radius = 250.0, step = ADASISProvider.mainPathContentStep
        var spotsAheadOfRadius = 0
        var reachBefore = -Double.infinity
        for second in 0..<20 {
            let point = projection.unproject(x: 5 + Double(second) * 10, y: 0)
            try pipeline.process(
                GNSSFix(
                    time: Double(second), latitude: point.latitude, longitude: point.longitude,
                    horizontalAccuracy: 3, speed: 10, heading: 90))
            for tick in 0..<10 {
                let time = Double(second) + Double(tick) / 10
                let frames = pipeline.tick(at: time)
                let vehicle = try #require(pipeline.provider.deadReckonedOffset(at: time))
                let reach = vehicle + radius
                defer { reachBefore = reach }
                for frame in frames {
                    guard let place = frame.message.pathPlace, place.pathIndex == 8 else { continue }
                    let offset = Double(place.offset)
                    #expect(
                        offset <= reach + step + 0.5,
                        "\(frame.message.type) at \(offset) m went at \(time) s with the radius at \(reach) m")
                    switch frame.message {
                    case .segment(let segment) where !segment.isRetransmission && !segment.isUpdate:
                        #expect(
                            offset <= reach + 0.5 && offset > reachBefore - 0.5, "SEGMENT at \(offset) m at \(time) s")
                    case .stub(let stub) where !stub.isRetransmission && !stub.isUpdate:
                        #expect(offset <= reach + 0.5 && offset > reachBefore - 0.5, "STUB at \(offset) m at \(time) s")
                    case .profileShort(let spot)
                    where spot.profileType == .trafficSignals && !spot.isRetransmission && offset > reach + 0.5:
                        // Ahead of the radius only within the link the radius is in.
                        let main = try #require(pipeline.provider.tree.mainPath)
                        #expect(
                            main.linkIndex(at: offset) == main.linkIndex(at: reach),
                            "signals at \(offset) m went at \(time) s, the radius at \(reach) m in another link")
                        spotsAheadOfRadius += 1
                    default:
                        break
                    }
                }
            }
        }
        // 20 s at 10 m/s: the radius enters two links, and each link's signals, 50 m in, go when it does.
        #expect(spotsAheadOfRadius == 2)
    }
}
