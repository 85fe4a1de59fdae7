import Foundation
import Logging
import RoadMap
import Routing
import Testing
import TestSupport
@testable import RouteBus

/// Answers the server's calls on a thread of its own, as the daemon's main loop does.
final class Responder: @unchecked Sendable {
    let server: RouteBusServer
    private let lock = NSLock()
    private var seen: [RouteRequest] = []
    private var running = true

    init(_ server: RouteBusServer, answer: @escaping @Sendable (RouteRequest) -> Result<RouteReply, RouteRequestError>)
    {
        self.server = server
        Thread { [self] in
            while lock.withLock({ running }) {
                for call in server.collect() {
                    lock.withLock { seen.append(call.request) }
                    server.answer(call.id, with: answer(call.request))
                }
                usleep(5000)
            }
        }.start()
    }

    var requests: [RouteRequest] { lock.withLock { seen } }

    func stop() {
        lock.withLock { running = false }
        server.requestStop()
    }
}

/// The route interface served on a private bus: what callers send arrives decoded, replies and
/// errors go back with their names, signals go out, and Introspect matches the shipped XML.
@Suite(
    "route interface on a private bus", .serialized,
    .enabled(if: runsBusTests, "dbus is not installed (apt-get install dbus)"))
struct RouteBusServerTests {
    static let name = "org.adasis.Horizon1", path = "/org/adasis/Horizon1"

    /// A bus, a server owning the name on it, and a responder giving `answer`.
    static func serve(
        _ answer: @escaping @Sendable (RouteRequest) -> Result<RouteReply, RouteRequestError>
    ) throws -> (PrivateBus, Responder) {
        let bus = try PrivateBus.open()
        let server = RouteBusServer.start(
            .init(bus: .address(bus.address), name: name, objectPath: path), logger: Logger(label: "test"))
        let responder = Responder(server, answer: answer)
        for _ in 0..<300 {
            if try bus.busctl(["status", name]).status == 0 { break }
            usleep(10_000)
        }
        return (bus, responder)
    }

    static let route = RouteDescription(
        id: 3, links: [DirectedLink(LinkID(2), .forward), DirectedLink(LinkID(1 << 40), .backward)], length: 1500,
        duration: 120, legs: [.init(length: 600, duration: 50), .init(length: 900, duration: 70)])

    static func answer(_ request: RouteRequest) -> Result<RouteReply, RouteRequestError> {
        switch request {
        case .setDestination(let point, _) where point.latitude > 80:
            return .failure(RouteRequestError(.noRoadNear, "no drivable road within 200 m of \(point.latitude)"))
        case .setDestination, .setRouteLinks, .setRouteCoordinates: return .success(.activeRoute(id: 7))
        case .clearRoute, .rejectProposal: return .success(.done)
        case .acceptProposal: return .failure(RouteRequestError(.noProposal, "there is no route proposal"))
        case .getRoute: return .success(.route(route))
        }
    }

    @Test("calls arrive decoded and their replies go back typed")
    func roundTrip() throws {
        let (bus, responder) = try Self.serve(Self.answer)
        defer { responder.stop() }
        let base = ["call", Self.name, Self.path, RouteBusInterface.name]
        let set = try bus.busctl(
            base + ["SetDestination", "dda(dd)", "60.17", "24.94", "2", "60.1", "24.9", "60.2", "25"])
        #expect(set.status == 0 && set.stdout == "u 7\n", "\(set)")
        let links = try bus.busctl(base + ["SetRouteLinks", "a(tb)", "2", "5", "true", "1099511627776", "false"])
        #expect(links.stdout == "u 7\n", "\(links)")
        let points = try bus.busctl(base + ["SetRouteCoordinates", "a(dd)", "2", "60.1", "24.9", "60.2", "25"])
        #expect(points.stdout == "u 7\n", "\(points)")
        #expect(try bus.busctl(base + ["ClearRoute"]).status == 0)
        #expect(try bus.busctl(base + ["RejectProposal"]).status == 0)
        let accept = try bus.busctl(base + ["AcceptProposal"])
        #expect(accept.status != 0 && accept.stderr.contains("there is no route proposal"), "\(accept)")
        let route = try bus.busctl(base + ["GetRoute"])
        #expect(route.stdout == "ua(tb)dda(dd) 3 2 2 true 1099511627776 false 1500 120 2 600 50 900 70\n", "\(route)")
        #expect(
            responder.requests == [
                .setDestination(
                    GeoPoint(latitude: 60.17, longitude: 24.94),
                    via: [GeoPoint(latitude: 60.1, longitude: 24.9), GeoPoint(latitude: 60.2, longitude: 25)]),
                .setRouteLinks([DirectedLink(LinkID(5), .forward), DirectedLink(LinkID(1 << 40), .backward)]),
                .setRouteCoordinates([
                    GeoPoint(latitude: 60.1, longitude: 24.9), GeoPoint(latitude: 60.2, longitude: 25),
                ]),
                .clearRoute, .rejectProposal, .acceptProposal, .getRoute,
            ])
    }

    @Test("a refused request gets its error; a malformed call gets InvalidArgs and never reaches the daemon")
    func errors() throws {
        let (bus, responder) = try Self.serve(Self.answer)
        defer { responder.stop() }
        let refused = try bus.busctl([
            "call", Self.name, Self.path, RouteBusInterface.name, "SetDestination", "dda(dd)", "89", "0", "0",
        ])
        #expect(refused.status != 0 && refused.stderr.contains("no drivable road within 200 m of 89"), "\(refused)")
        // dbus-send prints the error's name.
        let named = try runProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-send"),
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=\(Self.name)", Self.path,
                "\(RouteBusInterface.name).SetDestination", "double:60.1", "double:24.9",
            ])
        #expect(named.status != 0 && named.stderr.contains("Error org.freedesktop.DBus.Error.InvalidArgs"), "\(named)")
        let wrongType = try bus.busctl([
            "call", Self.name, Self.path, RouteBusInterface.name, "SetRouteLinks", "as", "1", "L5+",
        ])
        #expect(wrongType.status != 0 && wrongType.stderr.contains("expecting 'a(tb)'"), "\(wrongType)")
        #expect(responder.requests == [.setDestination(GeoPoint(latitude: 89, longitude: 0), via: [])])
    }

    @Test("every route event goes out as its signal")
    func signals() throws {
        let (bus, responder) = try Self.serve(Self.answer)
        defer { responder.stop() }
        let capture = bus.directory.appendingPathComponent("signals.txt")
        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        monitor.arguments = ["--address", bus.address, "type='signal',interface='\(RouteBusInterface.name)'"]
        try #require(FileManager.default.createFile(atPath: capture.path, contents: nil))
        monitor.standardOutput = try FileHandle(forWritingTo: capture)
        try monitor.run()
        defer { monitor.terminate() }
        usleep(300_000)
        let events: [RouteEvent] = [
            .routeAdded(id: 2, reason: .deviation), .activeRouteChanged(id: 2, reason: .deviation),
            .routeRemoved(id: 1, reason: .deviation),
            .routeUpdated(id: 2, reason: .refresh, remaining: 90, length: 800),
            .deviated(id: 1, link: DirectedLink(LinkID(103), .forward)),
            .planningFailed(.noRoadNear(GeoPoint(latitude: 1, longitude: 2), radius: 200), retryAt: 14),
            .arrived(id: 2), .routeProposed(id: 4, reason: .betterRoute, timeSaved: 320),
        ]
        for event in events { responder.server.emit(event, time: 10) }
        var text = ""
        for _ in 0..<300 {
            text = (try? String(contentsOf: capture, encoding: .utf8)) ?? ""
            if text.contains("member=RouteProposed") { break }
            usleep(10_000)
        }
        for signal in RouteBusInterface.description.signals {
            #expect(text.contains("member=\(signal.name)"), "no \(signal.name) in:\n\(text)")
        }
        #expect(text.contains("string \"deviation\""))
        #expect(text.contains("uint64 103") && text.contains("boolean true"))
        #expect(text.contains("string \"org.adasis.Horizon1.Error.NoRoadNear\"") && text.contains("double 4"))
    }

    @Test(
        "Introspect shows exactly the interfaces udev/org.adasis.Horizon1.xml documents",
        arguments: [RouteBusInterface.name, ObjectsBusInterface.name])
    func introspection(interface: String) throws {
        let (bus, responder) = try Self.serve(Self.answer)
        defer { responder.stop() }
        let live = try bus.busctl(["introspect", "--xml-interface", Self.name, Self.path])
        try #require(live.status == 0, "\(live)")
        let shipped = try String(contentsOf: Repository.url("udev/org.adasis.Horizon1.xml"), encoding: .utf8)
        let exported = Self.interfaceTags(live.stdout, interface), documented = Self.interfaceTags(shipped, interface)
        #expect(!exported.isEmpty)
        #expect(exported == documented, "exported:\n\(exported.joined(separator: "\n"))")
    }

    /// The tags of an interface's element, comments dropped and spacing normalised.
    static func interfaceTags(_ xml: String, _ interface: String = RouteBusInterface.name) -> [String] {
        guard let start = xml.range(of: "<interface name=\"\(interface)\">"),
            let end = xml.range(of: "</interface>", range: start.upperBound..<xml.endIndex)
        else { return [] }
        let element = String(xml[start.lowerBound..<end.upperBound])
        let withoutComments = element.replacingOccurrences(
            of: "<!--[\\s\\S]*?-->", with: "", options: .regularExpression)
        let tags = withoutComments.matches(of: /<[^>]+>/).map { String($0.output) }
        return tags.map {
            $0.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: " />", with: "/>")
        }
    }
}
