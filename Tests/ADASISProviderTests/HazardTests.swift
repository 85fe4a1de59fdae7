import Foundation
import ADASISv2
import GNSS
import Horizon
import RoadMap
import RoadMapStore
import Testing
@testable import ADASISProvider

/// The sample map's hazard: Bulevardi (way 333061573) is tagged `hazard=children` (a school sign).
/// None of the repository's drives takes Bulevardi, so the drives here are made from the imported
/// map's own geometry: along the way's links and the links in and out of it, one fix every 8 m at
/// 8 m/s.
@Suite("hazards: the sample's hazard=children stretch on Bulevardi", .serialized)
struct HazardTests {
    static let bulevardi: Int64 = 333_061_573

    /// A drive along the hazard way in `direction`, from the straightest link into it (if any)
    /// to the straightest link out of it (if any, no U-turn): its fixes, where along it the way
    /// begins and ends (metres), and whether a link leads in and out.
    static func drive(_ map: MapFile, _ direction: LinkDirection) throws -> (
        fixes: [GNSSFix], wayStart: Double, wayEnd: Double, comesIn: Bool, goesOut: Bool
    ) {
        var wayLinks: [RoadLink] = []
        for key in try map.tileKeys() { wayLinks += try map.tile(key).links.filter { $0.wayID == bulevardi } }
        // The way's links in driving order.
        func entry(_ link: RoadLink) -> NodeID { link.entryNode(direction) }
        func exit(_ link: RoadLink) -> NodeID { link.exitNode(direction) }
        var chain = [try #require(wayLinks.first { link in !wayLinks.contains { exit($0) == entry(link) } })]
        while let next = wayLinks.first(where: { entry($0) == exit(chain.last!) }), chain.count < wayLinks.count {
            chain.append(next)
        }
        #expect(chain.count == wayLinks.count)
        let steps = chain.map { DirectedLink($0.id, direction) }
        func turn(_ a: Double, _ b: Double) -> Double {
            let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
            return min(difference, 360 - difference)
        }
        let startBearing = try Self.bearing(map, steps[0], atEnd: false)
        let before = try map.incoming(to: entry(chain[0])).filter { try map.link($0.link).wayID != bulevardi }.min {
            try turn(Self.bearing(map, $0, atEnd: true), startBearing)
                < turn(Self.bearing(map, $1, atEnd: true), startBearing)
        }
        let endBearing = try Self.bearing(map, steps[steps.count - 1], atEnd: true)
        let after = try map.successors(of: steps[steps.count - 1]).filter { try map.link($0.link).wayID != bulevardi }
            .min {
                try turn(Self.bearing(map, $0, atEnd: false), endBearing)
                    < turn(Self.bearing(map, $1, atEnd: false), endBearing)
            }
        let driven = (before.map { [$0] } ?? []) + steps + (after.map { [$0] } ?? [])
        var points: [(point: GeoPoint, bearing: Double)] = []
        var wayStart = 0.0, wayEnd = 0.0, along = 0.0
        for step in driven {
            let link = try map.link(step.link)
            if step == steps[0] { wayStart = along }
            var offset = 0.0
            while offset < link.length {
                let at = step.direction == .forward ? offset : link.length - offset
                let place = try #require(link.geometry.point(atOffset: at))
                let bearing =
                    step.direction == .forward
                    ? place.bearing : (place.bearing + 180).truncatingRemainder(dividingBy: 360)
                if along + offset >= Double(points.count) * 8 { points.append((place.point, bearing)) }
                offset += 1
            }
            along += link.length
            if step == steps[steps.count - 1] { wayEnd = along }
        }
        let fixes = points.enumerated().map { index, place in
            GNSSFix(
                time: Double(index), latitude: place.point.latitude, longitude: place.point.longitude,
                horizontalAccuracy: 3, speed: 8, heading: place.bearing)
        }
        return (fixes, wayStart, wayEnd, before != nil, after != nil)
    }

    static func bearing(_ map: MapFile, _ step: DirectedLink, atEnd: Bool) throws -> Double {
        let link = try map.link(step.link)
        let forwardOffset = (step.direction == .forward) == atEnd ? link.length - 1 : 1
        let bearing = link.geometry.point(atOffset: forwardOffset)?.bearing ?? 0
        return step.direction == .forward ? bearing : (bearing + 180).truncatingRemainder(dividingBy: 360)
    }

    /// Bulevardi's hazard way is a dead end westward in the sample (the next way is outside the
    /// extract): driven eastward, the vehicle starts inside the hazard (entered at the first
    /// horizon) and leaves it at its end; driven westward, it enters it where it begins and the
    /// drive ends inside.
    @Test(
        "the hazard is entered where Bulevardi's hazard way begins and exited where it ends; rebuilt from CAN as code 16, kind children",
        arguments: [LinkDirection.forward, .backward])
    func bulevardiHazard(direction: LinkDirection) throws {
        let map = try SampleDrives.map()
        let drive = try Self.drive(map, direction)
        var configuration = ProviderConfiguration()
        configuration.messages = MessageSelection(preset: .all)
        let pipeline = try HorizonPipeline(network: map, provider: configuration)
        var tracker = RoadObjectTracker()
        var reconstructor = HorizonReconstructor()
        var events: [(fix: Int, what: String)] = []
        var firstHorizon: Int?
        var rebuiltCodes = Set<UInt16>()
        var rebuiltKinds = Set<UInt16>()
        for (index, fix) in drive.fixes.enumerated() {
            guard try pipeline.process(fix) != nil, let main = pipeline.engine.tree.mainPathID else { continue }
            if firstHorizon == nil { firstHorizon = index }
            for event in tracker.update(
                mainPathObjects: pipeline.engine.roadObjects(on: main), vehicleOffset: pipeline.engine.vehicleOffset)
            where event.object.type == .hazard {
                if case .entered(let object, _) = event { events.append((index, "entered \(object.id)")) }
                if case .exited(let object, _) = event { events.append((index, "exited \(object.id)")) }
            }
            for frame in pipeline.tick(at: fix.time) { reconstructor.apply(frame.message, time: frame.time) }
            for object in reconstructor.horizon.mainPath?.objects ?? [] {
                rebuiltCodes.insert(object.code)
                if object.code == 16, object.start != nil { rebuiltKinds.insert(object.value) }
            }
        }
        let id = "hazard:r\(Self.bulevardi)"
        #expect(
            events.map(\.what) == ["entered \(id)"] + (drive.goesOut ? ["exited \(id)"] : []), "\(events)")
        // One fix every 8 m: each event within two fixes of where the way begins or ends.
        let entered = drive.comesIn ? drive.wayStart : Double(try #require(firstHorizon)) * 8
        if let first = events.first {
            #expect(abs(Double(first.fix) * 8 - entered) <= 16, "entered at \(first.fix * 8) m, not \(entered) m")
        }
        if drive.goesOut, events.count == 2 {
            #expect(
                abs(Double(events[1].fix) * 8 - drive.wayEnd) <= 16,
                "exited at \(events[1].fix * 8) m, way to \(drive.wayEnd) m")
        }
        #expect(drive.comesIn != drive.goesOut, "the sample's way is a dead end one way (\(direction))")
        #expect(RoadObjectWireCode.code(.hazard) == 16 && rebuiltCodes.contains(16), "\(rebuiltCodes)")
        // The kind travels in Value1 of the zone start: hazard=children is code 1.
        #expect(rebuiltKinds == [HazardKind.children.rawValue], "\(rebuiltKinds)")
    }

    @Test("a hazard is no safety location: the legal filter never drops it")
    func notFiltered() {
        #expect(!RoadObjectType.hazard.isSafetyLocation)
        #expect(RoadObjectType.allCases.last == .hazard)  // the map stores zone types by position
    }
}
