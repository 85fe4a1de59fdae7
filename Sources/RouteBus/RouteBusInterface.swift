import RoadMap
import Routing

/// The head unit's route interface, `org.adasis.Horizon1.Route`: the methods a navigation app
/// calls and the signals it hears (Docs/dbus-api.md describes each; udev/org.adasis.Horizon1.xml
/// is its introspection, checked against this by a test).
public enum RouteBusInterface {
    /// The interface name.
    public static let name = "org.adasis.Horizon1.Route"

    /// Its methods and signals.
    public static let description = BusInterfaceDescription(
        name: name,
        methods: [
            .init(
                "SetDestination", inputs: [.init("latitude", "d"), .init("longitude", "d"), .init("vias", "a(dd)")],
                outputs: [.init("route_id", "u")]),
            .init("SetRouteLinks", inputs: [.init("links", "a(tb)")], outputs: [.init("route_id", "u")]),
            .init("SetRouteCoordinates", inputs: [.init("points", "a(dd)")], outputs: [.init("route_id", "u")]),
            .init("ClearRoute"),
            .init("AcceptProposal", outputs: [.init("route_id", "u")]),
            .init("RejectProposal"),
            .init(
                "GetRoute",
                outputs: [
                    .init("route_id", "u"), .init("links", "a(tb)"), .init("length_m", "d"),
                    .init("duration_s", "d"), .init("legs", "a(dd)"),
                ]),
        ],
        signals: [
            .init("RouteAdded", [.init("route_id", "u"), .init("reason", "s")]),
            .init("RouteRemoved", [.init("route_id", "u"), .init("reason", "s")]),
            .init(
                "RouteUpdated",
                [.init("route_id", "u"), .init("reason", "s"), .init("remaining_s", "d"), .init("length_m", "d")]),
            .init("ActiveRouteChanged", [.init("route_id", "u"), .init("reason", "s")]),
            .init("Deviated", [.init("route_id", "u"), .init("link_id", "t"), .init("forward", "b")]),
            .init("PlanningFailed", [.init("error", "s"), .init("message", "s"), .init("retry_in_s", "d")]),
            .init("Arrived", [.init("route_id", "u")]),
            .init("RouteProposed", [.init("route_id", "u"), .init("reason", "s"), .init("time_saved_s", "d")]),
        ])

    /// Decodes a call of one of the interface's methods (its signature already checked by sd-bus).
    static func request(_ call: BusMethodCall) throws(BusError) -> RouteRequest? {
        let arguments = call.arguments
        switch call.member {
        case "SetDestination":
            let latitude = try arguments.readDouble(), longitude = try arguments.readDouble()
            return .setDestination(GeoPoint(latitude: latitude, longitude: longitude), via: try arguments.readPoints())
        case "SetRouteLinks": return .setRouteLinks(try arguments.readDirectedLinks())
        case "SetRouteCoordinates": return .setRouteCoordinates(try arguments.readPoints())
        case "ClearRoute": return .clearRoute
        case "GetRoute": return .getRoute
        case "AcceptProposal": return .acceptProposal
        case "RejectProposal": return .rejectProposal
        default: return nil
        }
    }

    /// Writes the reply to a request that succeeded.
    static func write(_ reply: RouteReply, to writer: BusMessageWriter) throws(BusError) {
        switch reply {
        case .done: break
        case .activeRoute(let id): try writer.append(UInt32(clamping: id))
        case .route(let route):
            try writer.append(UInt32(clamping: route.id))
            try writer.append(route.links)
            try writer.append(route.length)
            try writer.append(route.duration)
            try writer.appendArray("(dd)", route.legs) { (writer, leg) throws(BusError) in
                try writer.appendStruct("dd") { (fields) throws(BusError) in
                    try fields.append(leg.length)
                    try fields.append(leg.duration)
                }
            }
        }
    }

    /// The signal for `event` at session time `time`: its member name and arguments.
    static func signal(for event: RouteEvent, time: Double) -> (
        member: String, arguments: (BusMessageWriter) throws(BusError) -> Void
    ) {
        func id(_ value: Int) -> UInt32 { UInt32(clamping: value) }
        switch event {
        case .routeAdded(let route, let reason):
            return (
                "RouteAdded",
                { (w) throws(BusError) in
                    try w.append(id(route)); try w.append(reason.rawValue)
                }
            )
        case .routeRemoved(let route, let reason):
            return (
                "RouteRemoved",
                { (w) throws(BusError) in
                    try w.append(id(route)); try w.append(reason.rawValue)
                }
            )
        case .routeUpdated(let route, let reason, let remaining, let length):
            return (
                "RouteUpdated",
                { (w) throws(BusError) in
                    try w.append(id(route))
                    try w.append(reason.rawValue)
                    try w.append(remaining)
                    try w.append(length)
                }
            )
        case .activeRouteChanged(let route, let reason):
            return (
                "ActiveRouteChanged",
                { (w) throws(BusError) in
                    try w.append(id(route)); try w.append(reason.rawValue)
                }
            )
        case .deviated(let route, let link):
            return (
                "Deviated",
                { (w) throws(BusError) in
                    try w.append(id(route))
                    try w.append(link.link.rawValue)
                    try w.append(link.direction == .forward)
                }
            )
        case .planningFailed(let error, let retryAt):
            let refusal = RouteRequestError(error)
            return (
                "PlanningFailed",
                { (w) throws(BusError) in
                    try w.append(refusal.name)
                    try w.append(refusal.message)
                    try w.append(max(0, retryAt - time))
                }
            )
        case .arrived(let route):
            return ("Arrived", { (w) throws(BusError) in try w.append(id(route)) })
        case .routeProposed(let route, let reason, let timeSaved):
            return (
                "RouteProposed",
                { (w) throws(BusError) in
                    try w.append(id(route))
                    try w.append(reason.rawValue)
                    try w.append(timeSaved)
                }
            )
        }
    }
}

extension RouteRequestError {
    /// The error a failed plan is reported as.
    public init(_ error: RoutingError) {
        switch error {
        case .invalidCoordinate: self.init(.invalidCoordinate, error.description)
        case .noRoadNear: self.init(.noRoadNear, error.description)
        case .unreachable, .searchLimitReached: self.init(.unreachable, error.description)
        case .mapUnreadable: self.init(.mapUnreadable, error.description)
        case .noProposal: self.init(.noProposal, error.description)
        }
    }
}
