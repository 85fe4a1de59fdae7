import Routing

/// `[dbus]`: whether and where the daemon serves its route interface.
public struct DBusSettings: Hashable, Sendable {
    /// Which message bus.
    public enum Bus: String, Hashable, Sendable, CaseIterable {
        /// The system bus, as deployed.
        case system
        /// The session bus (`DBUS_SESSION_BUS_ADDRESS`): tests and development.
        case session
    }

    /// Whether the interface is served at all.
    public var enabled: Bool
    /// The bus.
    public var bus: Bus
    /// The well-known name owned.
    public var name: String
    /// The object path of the route interface.
    public var objectPath: String
}

extension ConfigurationReader {
    /// `[routing]`: deviation replanning, route updates and their interval, better-route
    /// acceptance and thresholds, with
    /// ``Routing/RouteSessionConfiguration``'s names and defaults.
    mutating func routing() throws(ConfigurationError) -> RouteSessionConfiguration {
        var configuration = RouteSessionConfiguration()
        configuration.deviationReplanning = try choice(
            "routing.deviation_replanning", default: configuration.deviationReplanning)
        configuration.routeUpdates = try boolean("routing.route_updates", default: configuration.routeUpdates)
        configuration.replanInterval = try number(
            "routing.replan_interval_s", default: configuration.replanInterval, range: 10...86_400)
        configuration.acceptance = try choice("routing.acceptance", default: configuration.acceptance)
        configuration.minTimeDifference = try number(
            "routing.min_time_difference_s", default: configuration.minTimeDifference, range: 0...86_400)
        configuration.minTrafficDelay = try number(
            "routing.min_traffic_delay_s", default: configuration.minTrafficDelay, range: 0...86_400)
        return configuration
    }

    /// `[dbus]`: checked against the D-Bus specification's rules for names and object paths.
    mutating func dbus() throws(ConfigurationError) -> DBusSettings {
        let settings = DBusSettings(
            enabled: try boolean("dbus.enabled", default: false),
            bus: try choice("dbus.bus", default: .system),
            name: try string("dbus.name", default: "org.adasis.Horizon1"),
            objectPath: try string("dbus.object_path", default: "/org/adasis/Horizon1"))
        if let problem = Self.busNameProblem(settings.name) {
            throw ConfigurationError(file: file, key: "dbus.name", line: document.lines["dbus.name"], problem: problem)
        }
        if let problem = Self.objectPathProblem(settings.objectPath) {
            throw ConfigurationError(
                file: file, key: "dbus.object_path", line: document.lines["dbus.object_path"], problem: problem)
        }
        return settings
    }

    /// Why `name` is not a well-known bus name, or `nil`.
    static func busNameProblem(_ name: String) -> String? {
        let elements = name.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            name.utf8.count <= 255 && elements.count >= 2
            && elements.allSatisfy { element in
                guard let first = element.first, !first.isNumber else { return false }
                return element.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            }
        return valid
            ? nil
            : "'\(name)' is not a well-known D-Bus name: two or more dot-separated elements of ASCII letters, digits, _ and -, none starting with a digit (e.g. \"org.adasis.Horizon1\")"
    }

    /// Why `path` is not a D-Bus object path, or `nil`.
    static func objectPathProblem(_ path: String) -> String? {
        let elements = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let valid =
            path == "/"
            || (path.hasPrefix("/")
                && elements.allSatisfy { element in
                    !element.isEmpty && element.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                })
        return valid
            ? nil
            : "'\(path)' is not a D-Bus object path: '/' followed by elements of ASCII letters, digits and _, separated by single '/' (e.g. \"/org/adasis/Horizon1\")"
    }
}
