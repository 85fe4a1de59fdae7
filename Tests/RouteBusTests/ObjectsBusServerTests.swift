import Foundation
import Logging
import RoadMap
import Testing
import TestSupport
@testable import RouteBus

/// Answers the server's custom-object calls on a thread of its own, as the daemon's main loop does.
final class ObjectResponder: @unchecked Sendable {
    let server: RouteBusServer
    private let lock = NSLock()
    private var seen: [ObjectRequest] = []
    private var running = true

    init(
        _ server: RouteBusServer, answer: @escaping @Sendable (ObjectRequest) -> Result<ObjectReply, ObjectRequestError>
    ) {
        self.server = server
        Thread { [self] in
            while lock.withLock({ running }) {
                for call in server.collectObjectCalls() {
                    lock.withLock { seen.append(call.request) }
                    server.answerObjectCall(call.id, with: answer(call.request))
                }
                usleep(5000)
            }
        }.start()
    }

    var requests: [ObjectRequest] { lock.withLock { seen } }

    func stop() {
        lock.withLock { running = false }
        server.requestStop()
    }
}

/// The custom-object interface beside the route interface: calls arrive decoded, replies go back
/// typed, refusals with their error names.
@Suite(
    "custom-object interface on a private bus", .serialized,
    .enabled(if: runsBusTests, "dbus is not installed (apt-get install dbus)"))
struct ObjectsBusServerTests {
    static let name = "org.adasis.Horizon1", path = "/org/adasis/Horizon1"

    static let pieces = [
        CustomObjectPiece(link: LinkID(1 << 40), direction: .backward, start: 12.5, end: 12.5),
        CustomObjectPiece(link: LinkID(7), direction: nil, start: 0, end: 30.25),
    ]

    static func answer(_ request: ObjectRequest) -> Result<ObjectReply, ObjectRequestError> {
        switch request {
        case .add(let feature) where feature.contains("school"): return .success(.added(id: "school-1", pieces: pieces))
        case .add: return .failure(ObjectRequestError(.malformedGeoJSON, "malformed GeoJSON: not JSON"))
        case .remove(let id) where id == "school-1": return .success(.removed)
        case .remove(let id): return .failure(ObjectRequestError(.unknownID, "no object with id '\(id)' is stored"))
        case .clear: return .success(.cleared(count: 2))
        case .list:
            return .success(
                .objects([
                    ObjectSummary(id: "school-1", geometry: "point", pieces: [pieces[0]]),
                    ObjectSummary(id: "zone a", geometry: "polygon", pieces: []),
                ]))
        }
    }

    @Test("AddObject, RemoveObject, ClearObjects and ListObjects: decoded, answered typed, refused by name")
    func roundTrip() throws {
        let bus = try PrivateBus.open()
        let server = RouteBusServer.start(
            .init(bus: .address(bus.address), name: Self.name, objectPath: Self.path), logger: Logger(label: "test"))
        let responder = ObjectResponder(server, answer: Self.answer)
        defer { responder.stop() }
        for _ in 0..<300 {
            if try bus.busctl(["status", Self.name]).status == 0 { break }
            usleep(10_000)
        }
        let base = ["call", Self.name, Self.path, ObjectsBusInterface.name]
        let feature = #"{"type":"Feature","id":"school-1"}"#
        let added = try bus.busctl(base + ["AddObject", "s", feature])
        #expect(
            added.stdout == "sa(tsdd) \"school-1\" 2 1099511627776 \"backward\" 12.5 12.5 7 \"both\" 0 30.25\n",
            "\(added)")
        let malformed = try bus.busctl(base + ["AddObject", "s", "{"])
        #expect(malformed.status != 0 && malformed.stderr.contains("malformed GeoJSON: not JSON"), "\(malformed)")
        #expect(try bus.busctl(base + ["RemoveObject", "s", "school-1"]).status == 0)
        let named = try runProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-send"),
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=\(Self.name)", Self.path,
                "\(ObjectsBusInterface.name).RemoveObject", "string:nothing",
            ])
        #expect(named.stderr.contains("org.adasis.Horizon1.Error.UnknownId"), "\(named)")
        #expect(try bus.busctl(base + ["ClearObjects"]).stdout == "u 2\n")
        let listed = try bus.busctl(base + ["ListObjects"])
        #expect(
            listed.stdout
                == "a(ssa(tsdd)) 2 \"school-1\" \"point\" 1 1099511627776 \"backward\" 12.5 12.5 \"zone a\" \"polygon\" 0\n",
            "\(listed)")
        let wrong = try bus.busctl(base + ["RemoveObject", "u", "3"])
        #expect(wrong.status != 0 && wrong.stderr.contains("Invalid"), "\(wrong)")
        #expect(
            responder.requests == [
                .add(feature: feature), .add(feature: "{"), .remove(id: "school-1"), .remove(id: "nothing"), .clear,
                .list,
            ])
    }
}
