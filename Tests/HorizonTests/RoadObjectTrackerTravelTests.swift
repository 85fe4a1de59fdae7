import Horizon
import RoadMap
import Testing

/// A new main path can begin just past a point the vehicle drove over between two updates (the
/// tree rebuilt at the junction the point is at): with the metres travelled, the pass is reported
/// once, and not when the vehicle did not get that far.
@Suite("road object tracker: passes across a rebuilt main path")
struct RoadObjectTrackerTravelTests {
    static let signal = RoadObject(id: RoadObjectID(rawValue: "traffic_signals:L1@1000"), type: .trafficSignals)

    static func at(_ offset: Double, path: Int = 1) -> PathRoadObject {
        PathRoadObject(object: signal, path: PathID(rawValue: path), start: offset, end: offset)
    }

    static func names(_ events: [RoadObjectEvent]) -> [String] {
        events.compactMap {
            switch $0 {
            case .entered(let object, _): "entered \(object.id)"
            case .exited(let object, _): "exited \(object.id)"
            case .distanceUpdated: nil
            }
        }
    }

    @Test("a point 1 m ahead, gone from the new main path after 7 m driven, was passed; after 0.5 m it was not")
    func vanished() {
        var tracker = RoadObjectTracker()
        _ = tracker.update(mainPathObjects: [Self.at(101)], vehicleOffset: 100)
        let passed = tracker.update(mainPathObjects: [], vehicleOffset: 5, travelled: 7)
        #expect(Self.names(passed) == ["entered traffic_signals:L1@1000", "exited traffic_signals:L1@1000"])
        #expect(Self.names(tracker.update(mainPathObjects: [Self.at(6)], vehicleOffset: 12, travelled: 7)).isEmpty)

        var slow = RoadObjectTracker()
        _ = slow.update(mainPathObjects: [Self.at(101)], vehicleOffset: 100)
        #expect(Self.names(slow.update(mainPathObjects: [], vehicleOffset: 5, travelled: 0.5)).isEmpty)
    }

    @Test("the vehicle turned off 2 m ahead and drove 7 m: a point 4 m ahead on the path it left was not passed")
    func turnedOffBeforeIt() {
        var tracker = RoadObjectTracker()
        _ = tracker.update(mainPathObjects: [Self.at(104)], vehicleOffset: 100)
        // HorizonEngine.travelAlongPreviousMainPath: the branch 2 m ahead, plus 2 m through it.
        let turned = tracker.update(mainPathObjects: [], vehicleOffset: 5, travelled: 7, travelledAlongPreviousPath: 4)
        #expect(Self.names(turned).isEmpty)
        // At the junction's node itself (2 m ahead), it was.
        var atNode = RoadObjectTracker()
        _ = atNode.update(mainPathObjects: [Self.at(102)], vehicleOffset: 100)
        let passed = atNode.update(mainPathObjects: [], vehicleOffset: 5, travelled: 7, travelledAlongPreviousPath: 4)
        #expect(Self.names(passed) == ["entered traffic_signals:L1@1000", "exited traffic_signals:L1@1000"])
    }

    @Test("placed on a side path past a junction sooner than the speeds allow: a point at its node was passed")
    func placedPastTheNodeEarly() {
        // Esplanadi (noisy) at 202 s: the signal at the node 5.2 m ahead, 5.7 m driven by the speeds,
        // the matched position 1.4 m down the street turned into (a fix early). The engine's travel
        // along the path left, through the branch point plus 2 m, is 7.2 m: the signal was passed.
        var tracker = RoadObjectTracker()
        _ = tracker.update(mainPathObjects: [Self.at(105.2)], vehicleOffset: 100)
        let passed = tracker.update(
            mainPathObjects: [], vehicleOffset: 1.4, travelled: 5.7, travelledAlongPreviousPath: 7.2)
        #expect(Self.names(passed) == ["entered traffic_signals:L1@1000", "exited traffic_signals:L1@1000"])
    }

    @Test("a point first seen behind within what was driven was passed; one farther behind was not watched")
    func firstSeenBehind() {
        var tracker = RoadObjectTracker()
        _ = tracker.update(mainPathObjects: [], vehicleOffset: 50)
        #expect(
            Self.names(tracker.update(mainPathObjects: [Self.at(7.4)], vehicleOffset: 7.8, travelled: 8)).count == 2)
        var far = RoadObjectTracker()
        _ = far.update(mainPathObjects: [], vehicleOffset: 50)
        #expect(Self.names(far.update(mainPathObjects: [Self.at(2)], vehicleOffset: 20, travelled: 8)).isEmpty)
    }

    @Test("a main path coming round the block holds the point twice: passing the nearer one is reported")
    func loop() {
        var tracker = RoadObjectTracker()
        _ = tracker.update(mainPathObjects: [Self.at(1301), Self.at(2794)], vehicleOffset: 1300.4)
        // The tree is rebuilt past the point; the new main path comes round to it again 400 m on.
        let passed = tracker.update(mainPathObjects: [Self.at(406, path: 2)], vehicleOffset: 6, travelled: 6.5)
        #expect(Self.names(passed) == ["entered traffic_signals:L1@1000", "exited traffic_signals:L1@1000"])
        // Driving on to it there is the next pass.
        _ = tracker.update(mainPathObjects: [Self.at(406, path: 2)], vehicleOffset: 400, travelled: 8)
        #expect(
            Self.names(tracker.update(mainPathObjects: [Self.at(406, path: 2)], vehicleOffset: 408, travelled: 8)).count
                == 2)
    }
}
