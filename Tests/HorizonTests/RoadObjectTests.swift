import Testing
import RoadMap
@testable import Horizon
import TestSupport

/// Road objects along the paths of the tree, on a 3 km street (thirty 100 m links east, a side road
/// north at every fifth junction): a tunnel over links 5–6 of one way, an average-speed zone from
/// 50 m of link 3 to 30 m of link 25, a fixed camera at 50 m of link 8, Sweden from link 12 on
/// (a border crossing at 1100 m), a railway crossing on the side road at junction 5.
@Suite struct RoadObjectTests {
    /// Equal to within a millimetre (plane links are not exactly 100 m).
    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 0.001 }

    static func network() -> InMemoryRoadNetwork {
        var graph = PlaneRoadGraph.street(count: 30, sideEvery: 5)
        func zone(start: Bool, end: Bool, from: Double, to: Double) -> PointFeature {
            PointFeature(
                kind: .zone(
                    ZonePiece(
                        type: .averageSpeedZone, zone: 77, length: to - from, isZoneStart: start, isZoneEnd: end,
                        speedLimit: 60)), offset: from, direction: .forward)
        }
        for index in graph.links.indices {
            let id = graph.links[index].id.rawValue
            if id == 5 || id == 6 {
                graph.links[index].tunnel = true
                graph.links[index].wayID = 50
            }
            if id == 3 { graph.links[index].features = [zone(start: true, end: false, from: 50, to: 100)] }
            if (4...24).contains(id) {
                graph.links[index].features = [zone(start: false, end: false, from: 0, to: 100)]
            }
            if id == 25 { graph.links[index].features = [zone(start: false, end: true, from: 0, to: 30)] }
            if id == 8 {
                graph.links[index].features.append(
                    PointFeature(kind: .safetyCamera(.fixedSpeed, speedLimit: 50), offset: 50, direction: .forward))
                graph.links[index].features.sort { $0.offset < $1.offset }
            }
            if id == 105 {
                graph.links[index].features = [PointFeature(kind: .railwayCrossing, offset: 40, direction: nil)]
            }
            graph.links[index].countryCode = id < 100 && id >= 12 ? 752 : 246
        }
        return graph.network
    }

    static func engine(
        types: Set<RoadObjectType> = Set(RoadObjectType.allCases), at link: UInt64 = 1, offset: Double = 10
    )
        throws -> HorizonEngine
    {
        let engine = try HorizonEngine(
            network: network(),
            configuration: HorizonConfiguration(mainPathGrowthPerUpdate: .infinity, roadObjectTypes: types))
        _ = try engine.update(onRoad(fwd(link), offset, time: 0, discontinuity: true))
        return engine
    }

    /// Drives the engine along the main street to `offset` metres (from its start) in 10 m steps, one a second.
    static func drive(
        _ engine: HorizonEngine, from start: Double, to end: Double, _ each: (HorizonEngine) -> Void = { _ in }
    )
        throws
    {
        var position = start
        var time = 1.0
        while position <= end {
            let link = min(30, Int(position / 100) + 1)
            _ = try engine.update(onRoad(fwd(UInt64(link)), position - Double(link - 1) * 100, time: time))
            each(engine)
            position += 10
            time += 1
        }
    }

    @Test("every object along the main path with its offsets; a zone past the horizon is clipped")
    func alongTheMainPath() throws {
        let engine = try Self.engine()
        let main = try #require(engine.tree.mainPathID)
        let objects = engine.roadObjects(on: main)
        let byType = Dictionary(grouping: objects, by: \.object.type)
        let zone = try #require(byType[.averageSpeedZone]?.first)
        #expect(near(zone.start, 250) && zone.isClippedAtEnd && zone.end == engine.tree.mainPath!.endOffset)
        #expect(zone.object.id.rawValue == "average_speed_zone:r77" && zone.object.attributes.enforcedSpeed == 60)
        let tunnel = try #require(byType[.tunnel]?.first)
        #expect(
            byType[.tunnel]?.count == 1 && near(tunnel.start, 400) && near(tunnel.end, 600) && !tunnel.isClippedAtEnd)
        let camera = try #require(byType[.fixedSpeedCamera]?.first)
        #expect(camera.isPoint && near(camera.start, 750) && camera.object.attributes.enforcedSpeed == 50)
        let border = try #require(byType[.borderCrossing]?.first)
        #expect(near(border.start, 1100) && byType[.borderCrossing]?.count == 1)
        #expect(byType[.railwayCrossing] == nil)  // on a side road, not on the main path
        #expect(objects.map(\.start) == objects.map(\.start).sorted())
    }

    @Test("side paths carry their own objects")
    func sidePaths() throws {
        let engine = try Self.engine()
        let main = try #require(engine.tree.mainPathID)
        let side = try #require(engine.tree.child(of: main, at: 500))
        let objects = engine.roadObjects(on: side.id)
        #expect(objects.map(\.object.type) == [.railwayCrossing])
        #expect(abs(objects[0].start - (side.startOffset + 40)) < 1e-9)
    }

    @Test("the zone's end grows with the horizon until its real end is in sight")
    func zoneEndGrows() throws {
        let engine = try Self.engine()
        var ends: [Double] = []
        try Self.drive(engine, from: 20, to: 900) { engine in
            let zone = engine.roadObjects(on: engine.tree.mainPathID!).first { $0.object.type == .averageSpeedZone }
            ends.append(zone!.end)
        }
        #expect(ends == ends.sorted() && ends.first! < 2430 && near(ends.last!, 2430))
    }

    @Test("only the subscribed types are computed")
    func subscription() throws {
        let tunnels = try Self.engine(types: [.tunnel])
        #expect(tunnels.roadObjects(on: tunnels.tree.mainPathID!).map(\.object.type) == [.tunnel])
        let none = try Self.engine(types: [])
        #expect(none.roadObjectsAlongPaths.values.allSatisfy { $0.isEmpty })
    }

    @Test("an object behind the vehicle goes once it is farther back than the trailing length")
    func trailing() throws {
        let engine = try Self.engine()
        var seen: [(vehicle: Double, present: Bool)] = []
        try Self.drive(engine, from: 700, to: 1100) { engine in
            let present = engine.roadObjects(on: engine.tree.mainPathID!).contains {
                $0.object.type == .fixedSpeedCamera
            }
            seen.append((engine.vehicleOffset!, present))
        }
        #expect(seen.allSatisfy { $0.present == ($0.vehicle - 750 <= 200) || abs($0.vehicle - 950) < 0.01 })
        #expect(seen.contains { $0.present && $0.vehicle > 900 } && seen.contains { !$0.present })
    }

    @Test("entered and exited once per object, in order; distances only ahead")
    func events() throws {
        let engine = try Self.engine()
        var tracker = RoadObjectTracker()
        var events = tracker.update(mainPathObjects: engine.roadObjects(on: engine.tree.mainPathID!), vehicleOffset: 10)
        try Self.drive(engine, from: 20, to: 2990) { engine in
            events += tracker.update(
                mainPathObjects: engine.roadObjects(on: engine.tree.mainPathID!), vehicleOffset: engine.vehicleOffset)
        }
        let transitions = events.compactMap { event -> String? in
            switch event {
            case .entered(let object, _): "+\(object.type.rawValue)"
            case .exited(let object, _): "-\(object.type.rawValue)"
            case .distanceUpdated: nil
            }
        }
        #expect(
            transitions == [
                "+average_speed_zone", "+tunnel", "-tunnel", "+fixed_speed_camera", "-fixed_speed_camera",
                "+border_crossing", "-border_crossing", "-average_speed_zone",
            ])
        for case .distanceUpdated(let object, let distance) in events {
            #expect(distance > 0, "\(object.id)")
        }
        #expect(tracker.current.isEmpty)
    }

    @Test("starting inside a zone raises entered at once; noise backwards raises nothing again")
    func startInside() throws {
        let engine = try Self.engine(at: 5, offset: 50)
        var tracker = RoadObjectTracker()
        let first = tracker.update(
            mainPathObjects: engine.roadObjects(on: engine.tree.mainPathID!), vehicleOffset: engine.vehicleOffset)
        let entered = first.filter { if case .entered = $0 { true } else { false } }.map(\.object.type)
        #expect(entered.sorted() == [.averageSpeedZone, .tunnel])
        // Past the camera, then 5 m back before it, then past it again: one pass.
        var later: [RoadObjectEvent] = []
        for (time, offset) in [(1.0, 60.0), (2, 55), (3, 45), (4, 60), (5, 90)] {
            _ = try engine.update(onRoad(fwd(8), offset, time: time))
            later += tracker.update(
                mainPathObjects: engine.roadObjects(on: engine.tree.mainPathID!), vehicleOffset: engine.vehicleOffset)
        }
        let camera = later.filter { $0.object.type == .fixedSpeedCamera && !isDistance($0) }
        #expect(camera.count == 2)  // entered and exited, once
    }

    private func isDistance(_ event: RoadObjectEvent) -> Bool {
        if case .distanceUpdated = event { true } else { false }
    }
}
