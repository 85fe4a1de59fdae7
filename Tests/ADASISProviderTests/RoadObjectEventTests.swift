import Foundation
import ADASISv2
import GNSS
import Horizon
import RoadMap
import RoadMapStore
import Testing
import TestSupport
@testable import ADASISProvider

/// On the repository's real drives, the entered/exited events of the map matcher → horizon engine
/// → ``RoadObjectTracker`` chain are compared with the truth computed from geometry and the
/// drives' true ways: every object entered is exited once before it is entered again, and the
/// passes agree in order with the truth, where a point object (signals, camera, level crossing, …)
/// is passed when the recorded trace comes within 8 m of it heading the way the object applies
/// (the feature's direction, or the arriving link's at a junction) on a way the drive truly takes
/// there; the Pitkäsilta bridge is entered and left where the drive's true way is the bridge's.
@Suite("road object events on the real drives equal the truth from geometry", .serialized)
struct RoadObjectEventTests {
    /// A point object of the map where it physically is, with the bearings it applies to (`nil`: both ways).
    struct MapPoint {
        var position: GeoPoint
        var bearings: [Double?]
        /// The OSM ways of the links that carry it.
        var ways: Set<Int64>
    }

    static let passDistance = 8.0

    /// Every point feature of the map by position (features within 0.5 m are one place).
    static func mapPoints(_ map: MapFile) throws -> [MapPoint] {
        var result: [MapPoint] = []
        for key in try map.tileKeys() {
            for link in try map.tile(key).links {
                for feature in link.features {
                    if case .zone = feature.kind { continue }
                    if case .safetyCamera(.unknown, _) = feature.kind { continue }
                    guard let place = link.geometry.point(atOffset: feature.offset) else { continue }
                    let bearing: Double? = feature.direction.map { direction in
                        // At the link's ends, the bearing of the last (first) 10 m.
                        let near = min(max(feature.offset, 5), link.length - 5)
                        let forward = link.geometry.point(atOffset: near)?.bearing ?? place.bearing
                        return direction == .forward ? forward : (forward + 180).truncatingRemainder(dividingBy: 360)
                    }
                    if let index = result.firstIndex(where: { $0.position.distance(to: place.point) < 0.5 }) {
                        result[index].bearings.append(bearing)
                        result[index].ways.insert(link.wayID)
                    } else {
                        result.append(MapPoint(position: place.point, bearings: [bearing], ways: [link.wayID]))
                    }
                }
            }
        }
        // A point at a node where its way goes on as another (a short way OSM split off, which no fix
        // of a drive may name: Pohjoisesplanadi's signal at the end of the 5.7 m way 155367884) lies on
        // the continuing way too: the links with an end within 0.5 m of it, along a bearing within 60° of
        // one the point applies to (either way along the link: the true ways decide the direction driven).
        for key in try map.tileKeys() {
            for link in try map.tile(key).links {
                guard let first = link.geometry.point(atOffset: 0),
                    let last = link.geometry.point(atOffset: link.length)
                else { continue }
                let near = min(5, link.length / 2)
                for (end, bearing) in [
                    (first.point, link.geometry.point(atOffset: near)?.bearing ?? first.bearing),
                    (last.point, link.geometry.point(atOffset: link.length - near)?.bearing ?? last.bearing),
                ] {
                    for index in result.indices where result[index].position.distance(to: end) < 0.5 {
                        let goesOn = result[index].bearings.contains { applies in
                            guard let applies else { return false }
                            return angle(applies, bearing) <= 60 || angle(applies, bearing + 180) <= 60
                        }
                        if goesOn { result[index].ways.insert(link.wayID) }
                    }
                }
            }
        }
        return result
    }

    static func angle(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    /// The map points the trace passes, in the order it passes them: runs of trace segments within
    /// ``passDistance`` of a point, heading within 60° of a bearing the point applies to, on a way
    /// the drive truly takes there (`trueWays`, the drive's `true_way_id` of each fix, within two
    /// fixes of the closest approach: a signal of the parallel carriageway or of a side street a
    /// few metres away is not passed), begun after `firstFix` (the first fix with a horizon:
    /// before it, nothing can be reported).
    static func truth(_ fixes: [GNSSFix], points: [MapPoint], trueWays: [Int64], from firstFix: Int) -> [GeoPoint] {
        func onTrueWay(_ point: MapPoint, _ along: Double) -> Bool {
            let index = Int(along)
            let around = trueWays[max(0, index - 2)...min(trueWays.count - 1, index + 2)]
            return around.contains { point.ways.contains($0) }
        }
        var passes: [(along: Double, point: GeoPoint)] = []
        for point in points {
            let plane = LocalProjection(origin: point.position)
            var inside = false
            var runStart = 0
            var best: (distance: Double, along: Double, heading: Double)?
            for index in 0..<(fixes.count - 1) {
                let a = plane.project(GeoPoint(latitude: fixes[index].latitude, longitude: fixes[index].longitude))
                let b = plane.project(
                    GeoPoint(latitude: fixes[index + 1].latitude, longitude: fixes[index + 1].longitude))
                let dx = b.x - a.x, dy = b.y - a.y
                let squared = dx * dx + dy * dy
                let t = squared > 0 ? max(0, min(1, (-a.x * dx - a.y * dy) / squared)) : 0
                let distance = ((a.x + t * dx) * (a.x + t * dx) + (a.y + t * dy) * (a.y + t * dy)).squareRoot()
                if distance < passDistance {
                    var heading = atan2(dx, dy) * 180 / .pi
                    if heading < 0 { heading += 360 }
                    if squared < 1 { heading = fixes[index].heading ?? heading }
                    if best == nil || distance < best!.distance { best = (distance, Double(index) + t, heading) }
                    if !inside { runStart = index }
                    inside = true
                } else if inside {
                    // A drive that starts beside a point has not been watched passing it.
                    if runStart > firstFix, let best, onTrueWay(point, best.along),
                        point.bearings.contains(where: { $0 == nil || angle($0!, best.heading) <= 60 })
                    {
                        passes.append((best.along, point.position))
                    }
                    inside = false
                    best = nil
                }
            }
            // A drive that ends beside a point has passed it only if it got past its closest approach:
            // that lies before the last fix (the trace moved away from the point after it). The vehicle
            // is then past the point on its road, where the engine reports the pass too.
            if inside, runStart > firstFix, let best, best.along < Double(fixes.count - 1) - 1e-9,
                onTrueWay(point, best.along),
                point.bearings.contains(where: { $0 == nil || angle($0!, best.heading) <= 60 })
            {
                passes.append((best.along, point.position))
            }
        }
        return passes.sorted { $0.along < $1.along }.map(\.point)
    }

    /// Where `object` lies on `path`, on the map.
    static func position(_ object: PathRoadObject, on path: HorizonPath, map: MapFile) throws -> GeoPoint? {
        guard let index = path.linkIndex(at: object.start) else { return nil }
        let link = path.links[index]
        let road = try map.link(link.link.link)
        let along = object.start - link.startOffset
        return road.geometry.point(atOffset: link.link.direction == .forward ? along : road.length - along)?.point
    }

    /// One drive: the order problems (entered twice, exited without entering), and the engine's
    /// passes against the true ones.
    /// `noisy`: the engine is fed the drive's 5 m-noise trace; the truth still comes from the clean one.
    static func passes(_ drive: String, noisy: Bool = false) throws -> (
        problems: [String], shared: Int, engine: Int, truth: Int, text: String
    ) {
        let map = try SampleDrives.map()
        let fixes = try SampleDrives.fixes(drive, noisy: noisy)
        let pipeline = try HorizonPipeline(network: map)
        var tracker = RoadObjectTracker()
        var passed: [GeoPoint] = []
        var passTimes: [Double] = []
        var open: Set<RoadObjectID> = []
        var problems: [String] = []
        var firstHorizon: Int?
        var known: [RoadObjectID: GeoPoint] = [:]  // where each point object seen on the main path is
        for (index, fix) in fixes.enumerated() {
            guard try pipeline.process(fix) != nil, let main = pipeline.engine.tree.mainPath else { continue }
            if firstHorizon == nil { firstHorizon = index }
            let objects = pipeline.engine.roadObjects(on: main.id)
            for object in objects where object.isPoint && known[object.object.id] == nil {
                known[object.object.id] = try Self.position(object, on: main, map: map)
            }
            let driven = index > 0 ? (fix.speed ?? 0) * (fix.time - fixes[index - 1].time) : 0
            for event in tracker.update(mainPathObjects: objects, after: pipeline.engine, driven: driven) {
                switch event {
                case .entered(let object, _):
                    if !open.insert(object.id).inserted { problems.append("\(fix.time) s: entered \(object.id) twice") }
                    // A point passed off the main path (the tree rebuilt past it) is where it was seen.
                    guard let point = known[object.id] else { continue }
                    passed.append(point)
                    passTimes.append(fix.time)
                case .exited(let object, _):
                    if open.remove(object.id) == nil {
                        problems.append("\(fix.time) s: exited \(object.id) not entered")
                    }
                case .distanceUpdated:
                    break
                }
            }
        }
        let truth = Self.truth(
            try SampleDrives.fixes(drive), points: try Self.mapPoints(map), trueWays: try SampleDrives.trueWays(drive),
            from: try #require(firstHorizon))
        // The passes both sequences share, in order (longest common subsequence, 1 m apart at most).
        var table = Array(repeating: Array(repeating: 0, count: truth.count + 1), count: passed.count + 1)
        for i in 0..<passed.count {
            for j in 0..<truth.count {
                table[i + 1][j + 1] =
                    passed[i].distance(to: truth[j]) < 1 ? table[i][j] + 1 : max(table[i][j + 1], table[i + 1][j])
            }
        }
        let shared = table[passed.count][truth.count]
        func text(_ points: [GeoPoint]) -> String {
            points.map { String(format: "%.6f,%.6f", $0.latitude, $0.longitude) }.joined(separator: " ")
        }
        let times = passTimes.map { String(format: "%.0f s", $0) }.joined(separator: " ")
        return (problems, shared, passed.count, truth.count, "engine \(text(passed)) at \(times); truth \(text(truth))")
    }

    @Test("point objects: entered and exited once per pass; the passes agree in order with the truth")
    func pointObjects() throws {
        var shared = 0, engine = 0, truth = 0, exact = 0
        // The drives on the real map (the synthetic suburb's have no point objects of OSM's).
        for drive in SampleDriveList.names where !SampleDriveList.suburbNames.contains(drive) {
            let result = try Self.passes(drive)
            #expect(result.problems.isEmpty, "\(drive): \(result.problems.prefix(5))")
            #expect(result.truth > 0, "\(drive)")
            shared += result.shared
            engine += result.engine
            truth += result.truth
            // Every true pass is reported, in order, on every drive.
            #expect(result.shared == result.truth, "\(drive): \(result.text)")
            // No reported pass that did not happen. Esplanadi 169 s no longer: the car turns round at
            // 2.7 m/s at the signal at the end of Bulevardi (42919365; the trace 0.1 m from its node),
            // and the matcher puts that fix 0.7 m into 76336872 beyond the node; a point is passed
            // only 1 m beyond it now (RoadObjectTracker.passMargin). Ullanlinna 239 s no longer: the car turns right off
            // 75730437 onto 7973163, which the main path also reaches 24 m later past a signal
            // straight on (traffic_signals:L2321844266357227562@0); HorizonEngine now places the
            // vehicle on the shorter way (the side path), so the signal is not taken as driven past.
            // (Earlier, on the Euler drives: esplanadi 220 s, a drive ending just past a
            // signal, was no pass in the truth because it ignored the last segment of the trace; a
            // pass now needs the closest approach before the last fix, the trace moving away after
            // it. Esplanadi 75 s was no true pass because the signal sits on the 5.7 m way 155367884,
            // which no fix names; a point at a node lies on the way going on from it too. Before
            // HorizonEngine accepted the vehicle's link ahead only within reach of its last position,
            // esplanadi 183 s passed three more signals: the engine moved the vehicle 1081 m along a
            // main path, then 397 m along a side path, that came round the block to the link it had
            // turned onto.)
            #expect(result.engine == result.truth, "\(drive): \(result.text)")
            exact += result.engine == result.truth ? 1 : 0
        }
        // Measured: 73 passes shared of 73 reported and 73 true, the exact order on all seven drives.
        #expect(shared == truth && engine == truth, "\(shared) shared of \(engine) reported, \(truth) true")
        #expect(exact == 7, "\(shared) shared of \(engine) reported, \(truth) true")
    }

    @Test("point objects on the 5 m-noise traces: the passes agree with the clean trace's truth")
    func pointObjectsNoisy() throws {
        var shared = 0, engine = 0, truth = 0, exact: [String] = []
        for drive in SampleDriveList.names where !SampleDriveList.suburbNames.contains(drive) {
            let result = try Self.passes(drive, noisy: true)
            #expect(result.problems.isEmpty, "\(drive): \(result.problems.prefix(5))")
            shared += result.shared
            engine += result.engine
            truth += result.truth
            if result.engine == result.truth, result.shared == result.truth { exact.append(drive) }
        }
        // Measured: 71 passes shared of 75 reported and 73 true. Esplanadi's U-turn at 170–171 s
        // (matched 3 m before the signal at the node where the car turns round) is no pass since
        // HorizonEngine.forwardTravel(_:) knows the turn round (before: 76 reported). Left, all the
        // matcher's on the noisy fixes: kruununhaka 3 s (a signal by the drive's start, which the
        // truth does not count as watched), mannerheimintie 15 s and ullanlinna 198 s (a signal
        // 7–8 m from the true one passed instead of it), ullanlinna 239 s (the right turn off
        // 75730437 onto 7973163 matched late: the signal straight on is passed too). Since dead
        // reckoning is fused with the fixes (stop 54): 72 shared of 75 reported, and esplanadi
        // 169 s is a pass again: the fused position puts the car 1.2 m
        // past the signal at the node where it turns round (the truth 0.1 m from the node; the
        // unfused matcher 0.4 m past it), beyond the tracker's 1 m margin.
        #expect(shared >= 72 && engine <= shared + 3, "\(shared) shared of \(engine) reported, \(truth) true")
        #expect(exact.count >= 4, "exact on \(exact)")
    }

    @Test("the Pitkäsilta bridge is entered and left where the drive's true way is the bridge's")
    func bridge() throws {
        let map = try SampleDrives.map()
        let fixes = try SampleDrives.fixes("kaisaniemi")
        let bridgeWay: Int64 = 122_869_888
        let trueWays = try SampleDrives.trueWays("kaisaniemi")
        let onBridge = trueWays.indices.filter { trueWays[$0] == bridgeWay }
        let first = try #require(onBridge.first), last = try #require(onBridge.last)
        let pipeline = try HorizonPipeline(network: map)
        var tracker = RoadObjectTracker()
        var events: [(fix: Int, what: String)] = []
        for (index, fix) in fixes.enumerated() {
            guard try pipeline.process(fix) != nil, let main = pipeline.engine.tree.mainPathID else { continue }
            for event in tracker.update(
                mainPathObjects: pipeline.engine.roadObjects(on: main), vehicleOffset: pipeline.engine.vehicleOffset)
            where event.object.type == .bridge {
                if case .entered = event { events.append((index, "entered")) }
                if case .exited = event { events.append((index, "exited")) }
            }
        }
        #expect(events.map(\.what) == ["entered", "exited"])
        #expect(abs(events[0].fix - first) <= 1, "entered at fix \(events[0].fix), true way from fix \(first)")
        #expect(abs(events[1].fix - (last + 1)) <= 1, "exited at fix \(events[1].fix), true way until fix \(last)")
    }
}
