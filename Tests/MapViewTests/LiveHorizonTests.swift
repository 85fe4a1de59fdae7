import ADASISv2
import Foundation
import Testing

@testable import MapView

/// The live view's model: frames in (as a receiving ECU gets them), the page's document out.
struct LiveHorizonTests {
    /// Feeds `message` on its default identifier at `time`.
    static func send(_ message: ADASISMessage, to live: inout LiveHorizon, at time: Double) throws {
        let identifier = CANIdentifierAssignment.defaultIdentifiers[message.type]!
        live.receive(identifier: identifier, isExtended: false, data: try message.encode(), time: time)
    }

    /// Path 8 runs east from (60.17, 24.90) through shape points at 0, 100 and 200 m, on way 1001
    /// up to 100 m and way 1002 after; path 9 branches at 100 m to the north; path 10 has a
    /// SEGMENT but no shape point and no STUB. The vehicle is at 50 m.
    static func horizon(position: UInt16 = 50) throws -> LiveHorizon {
        var live = LiveHorizon(source: "vcan0")
        var time = 100.0
        func send(_ message: ADASISMessage) throws {
            time += 0.01
            try LiveHorizonTests.send(message, to: &live, at: time)
        }
        func shape(_ path: UInt8, _ offset: UInt16, latitude: Double, longitude: Double) throws {
            try send(
                .profileLong(
                    ProfileLongMessage(
                        offset: offset, pathIndex: path, profileType: .longitude,
                        value: ValueCoding.longitudeCode(degrees: longitude))))
            try send(
                .profileLong(
                    ProfileLongMessage(
                        offset: offset, pathIndex: path, profileType: .latitude,
                        value: ValueCoding.latitudeCode(degrees: latitude))))
        }
        try send(.position(PositionMessage(offset: 0, pathIndex: 8)))
        let limit50 = ValueCoding.speedLimitCode(kilometresPerHour: 50, units: .kilometresPerHour)
        let limit70 = ValueCoding.speedLimitCode(kilometresPerHour: 70, units: .kilometresPerHour)
        try send(.segment(SegmentMessage(offset: 0, pathIndex: 8, effectiveSpeedLimit: limit50)))
        try send(.segment(SegmentMessage(offset: 150, pathIndex: 8, effectiveSpeedLimit: limit70)))
        for (offset, longitude) in [(UInt16(0), 24.90), (100, 24.9018), (200, 24.9036)] {
            try shape(8, offset, latitude: 60.17, longitude: longitude)
        }
        try send(.profileLong(ProfileLongMessage(offset: 0, pathIndex: 8, profileType: .linkIdentifier, value: 1001)))
        try send(.profileLong(ProfileLongMessage(offset: 100, pathIndex: 8, profileType: .linkIdentifier, value: 1002)))
        try send(.stub(StubMessage(offset: 100, pathIndex: 8, subPathIndex: 9)))
        try shape(9, 0, latitude: 60.17, longitude: 24.9018)
        try shape(9, 80, latitude: 60.1707, longitude: 24.9018)
        try send(.segment(SegmentMessage(offset: 0, pathIndex: 10, effectiveSpeedLimit: limit50)))
        try send(
            .profileShort(
                ProfileShortMessage(offset: 180, pathIndex: 8, profileType: .safetyCamera, value0: 1, value1: 40)))
        try send(.position(PositionMessage(offset: position, pathIndex: 8, speed: 100)))
        return live
    }

    struct Document: Decodable {
        struct Feature: Decodable {
            struct Geometry: Decodable {
                var type: String
            }
            var geometry: Geometry
            var properties: [String: JSONValue]
        }
        struct Collection: Decodable { var features: [Feature] }
        struct Problem: Decodable {
            var since_s: Double
            var reason: String
        }
        struct Bus: Decodable {
            var frames_last_second: Int
            var received: Int
            var dropped: Int
            var not_adasis: Int
            var sent: [String: Int]
            var frames: [LiveHorizon.BusFrame]
        }
        var mode: String
        var source: String
        var silent_s: Double?
        var problem: Problem?
        var recoveries: Int
        var bus: Bus
        var tree: LiveTreeSummary
        var features: Collection
    }

    enum JSONValue: Decodable, Equatable {
        case number(Double), string(String), bool(Bool)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    static func document(_ live: LiveHorizon, at now: Double) throws -> Document {
        try JSONDecoder().decode(Document.self, from: try live.document(at: now))
    }

    @Test func placesTheMainPathBySpotsCutAtTheLinkIdentifiersAndTheVehicleAtItsOffset() throws {
        let document = try Self.document(try Self.horizon(), at: 100.5)
        #expect(document.mode == "live" && document.source == "vcan0")
        let main = document.features.features.filter { $0.properties["kind"] == .string("main_path") }
        #expect(main.map { $0.properties["way_id"] } == [.number(1001), .number(1002)])
        #expect(main.map { $0.properties["distance_m"] } == [.number(0), .number(50)])
        let trailing = document.features.features.filter { $0.properties["kind"] == .string("trailing") }
        #expect(trailing.count == 1)
        let side = document.features.features.filter { $0.properties["kind"] == .string("side_path") }
        #expect(side.map { $0.properties["path_id"] } == [.number(9)])
        #expect(side.first?.properties["level"] == .number(1))
        let matched = document.features.features.filter { $0.properties["kind"] == .string("matched") }
        #expect(matched.map { $0.properties["offset_m"] } == [.number(50)])
        let objects = document.features.features.filter { $0.properties["kind"] == .string("object") }
        #expect(objects.map { $0.properties["type"] } == [.string("camera")])
        // Path 10 has no shape points and no STUB: listed, not drawn.
        #expect(document.tree.paths.map(\.index) == [8, 9, 10])
        #expect(document.tree.paths.map(\.placed) == [true, true, false])
        #expect(document.tree.placement.contains("2 of 3 paths drawn; paths 10 have no shape points"))
        #expect(document.tree.speed_limit_kmh == 50)
        #expect(document.tree.next_speed_limit == LiveTreeSummary.Ahead(distance_m: 100, detail: "70 km/h"))
        #expect(document.tree.next_camera?.distance_m == 130)
    }

    @Test func theVehicleMovesWithPosition() throws {
        let at50 = try Self.document(try Self.horizon(position: 50), at: 101)
        let at150 = try Self.document(try Self.horizon(position: 150), at: 101)
        let point = { (document: Document) in
            document.features.features.first { $0.properties["kind"] == .string("matched") }?.properties["offset_m"]
        }
        #expect(point(at50) == .number(50) && point(at150) == .number(150))
        let main150 = at150.features.features.filter { $0.properties["kind"] == .string("main_path") }
        #expect(main150.map { $0.properties["way_id"] } == [.number(1002)])
    }

    @Test func countsOtherFramesAndShowsTheBus() throws {
        var live = try Self.horizon()
        live.receive(identifier: 0x123, isExtended: false, data: [1, 2], time: 100.4)
        let document = try Self.document(live, at: 100.5)
        #expect(document.bus.not_adasis == 1 && document.bus.received == 20 && document.bus.dropped == 0)
        // 19 ADASIS v2 frames 10 ms apart, all in the last second; the other frame is not counted.
        #expect(document.bus.frames_last_second == 19)
        #expect(document.bus.sent["position"] == 2 && document.bus.sent["profileLong"] == 12)
        #expect(document.bus.frames.count == 12)
        #expect(document.bus.frames.last?.text.hasPrefix("position Offset=50 ") == true)
        #expect(document.bus.frames.last?.id == "0x361")
        // Two seconds later nothing came in the last second.
        #expect(try Self.document(live, at: 102.5).bus.frames_last_second == 0)
    }

    @Test func aSilentSourceIsReportedUntilFramesComeBack() throws {
        var live = try Self.horizon()
        live.sourceFailed("vcan0 is down", time: 103)
        live.sourceFailed("vcan0 is gone", time: 104)
        var document = try Self.document(live, at: 110)
        #expect(document.problem?.reason == "vcan0 is down" && document.problem?.since_s == 103)
        #expect(abs((document.silent_s ?? 0) - 9.81) < 0.001)
        try Self.send(.position(PositionMessage(offset: 60, pathIndex: 8)), to: &live, at: 111)
        document = try Self.document(live, at: 111)
        #expect(document.problem == nil && document.recoveries == 1 && document.silent_s == 0)
    }

    /// A reader slower than the bus reads the socket's backlog after the interface went down:
    /// those frames were received before the failure and are fed on, but only a frame received
    /// after it says the source is back.
    @Test func framesReceivedBeforeTheFailureDoNotEndIt() throws {
        var live = try Self.horizon()
        live.sourceFailed("vcan0 is down", time: 103)
        try Self.send(.position(PositionMessage(offset: 60, pathIndex: 8)), to: &live, at: 102.5)
        var document = try Self.document(live, at: 104)
        #expect(document.problem?.reason == "vcan0 is down" && document.recoveries == 0)
        #expect(document.bus.sent["position"] == 3)
        try Self.send(.position(PositionMessage(offset: 70, pathIndex: 8)), to: &live, at: 105)
        document = try Self.document(live, at: 105)
        #expect(document.problem == nil && document.recoveries == 1)
    }

    /// Frames the kernel dropped are counted apart from those received.
    @Test func framesTheKernelDroppedAreCounted() throws {
        var live = try Self.horizon()
        live.kernelDropped(250)
        live.kernelDropped(3)
        let document = try Self.document(live, at: 101)
        #expect(document.bus.dropped == 253 && document.bus.received == 19)
    }

    /// A frame older than the last one received means the receiver's clock stepped back: it
    /// cannot be ordered against the failure and ends it.
    @Test func aClockSteppedBackStillEndsTheProblem() throws {
        var live = try Self.horizon()
        live.sourceFailed("vcan0 is down", time: 103)
        try Self.send(.position(PositionMessage(offset: 60, pathIndex: 8)), to: &live, at: 40)
        let document = try Self.document(live, at: 41)
        #expect(document.problem == nil && document.recoveries == 1)
    }

    @Test func beforeAnyFrameTheDocumentSaysSo() throws {
        let document = try Self.document(LiveHorizon(source: "vcan0"), at: 5)
        #expect(document.silent_s == nil && document.features.features.isEmpty)
        #expect(document.tree.placement == "no path received yet")
    }

    @Test func theSiteServesTheLiveDocumentAndRefusesReplayRequests() {
        let site = ViewSite(
            assets: ["index.html": Data("<html>".utf8)], style: Data("{}".utf8), liveSource: "vcan0",
            live: { Data("{\"mode\":\"live\"}".utf8) }, tiles: { _, _ in [] })
        #expect(
            String(decoding: site.respond(method: "GET", target: "/view.json").body, as: UTF8.self)
                == #"{"mode":"live","source":"vcan0"}"#)
        #expect(site.respond(method: "GET", target: "/live.json").body == Data("{\"mode\":\"live\"}".utf8))
        let timeline = site.respond(method: "GET", target: "/timeline.json")
        #expect(timeline.status == 404)
        #expect(String(decoding: timeline.body, as: UTF8.self).contains("live mode (vcan0) has no timeline"))
        #expect(site.respond(method: "GET", target: "/horizon.json?t=3").status == 404)
    }
}
