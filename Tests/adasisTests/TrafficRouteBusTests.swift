import Foundation
import Testing
import TestSupport

/// The drive on Mannerheimintie (its first 55 s from the NMEA file, at the pace of its fixes) and
/// a destination it reaches after ≈ 100 s: the route runs south-east through central Helsinki.
private let origin = "60.171167,24.935969", destination = (latitude: 60.166719, longitude: 24.943903)

/// The three replanning modes on real data through `adasis run` on vcan0 and its route interface
/// on a private D-Bus: once the route is set, the feed file is replaced by one that jams (or
/// closes) the middle of the route, and the daemon signals what the mode prescribes.
@Suite("adasis run: traffic feed and the route interface end to end", .serialized)
struct TrafficRouteBusTests {
    /// The feed a mode's test switches to, on the route's links `route` (L123+ per entry): a jam,
    /// or a closure of one link in the middle.
    static func feed(jam: Bool, route: [String]) -> String {
        // The jam: 1 km/h (the slowest the layer counts) on the route's middle half, minutes of
        // delay (`adasis route --traffic` with it takes a 1.7 km detour).
        let middle = Array(route[(route.count * 3 / 10)..<(route.count * 8 / 10)])
        let records =
            jam
            ? #""flowSegments": [{"links": [\#(middle.map { "\"\($0)\"" }.joined(separator: ", "))], "currentSpeed": 1, "freeFlowSpeed": 40}]"#
            : #""incidents": [{"id": "works", "iconCategory": 8, "roadClosed": true, "links": ["\#(middle[middle.count / 2])"]}]"#
        return """
            {"trafficModelId": "\(jam ? "jam" : "closure")", "generatedAt": "2026-03-02T09:59:00Z",
             "validUntil": "2099-01-01T00:00:00Z", \(records)}
            """
    }

    @Test(
        "manual: a jam proposes a better route; automatic: it switches; unreachable-only: a closure switches round it",
        .enabled(if: runsBusEndToEnd, "dbus is not installed (apt-get install dbus)"),
        arguments: [
            ("manual", true, "member=RouteProposed", "better_route"),
            ("automatic", true, "member=ActiveRouteChanged", "better_route"),
            ("unreachable_only", false, "member=ActiveRouteChanged", "avoid_blockage"),
        ])
    func replanningOnTraffic(acceptance: String, jam: Bool, signal: String, reason: String) throws {
        let (directory, map, _, _, config) = try RunDaemonTests.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let planned = try runAdasis([
            "route", "--map", map, "--from", origin, "--to", "\(destination.latitude),\(destination.longitude)",
        ])
        let route = planned.stdout.split(separator: "\n").filter { $0.hasPrefix("L") }.map(String.init)
        try #require(route.count >= 10, "\(planned.stdout)\(planned.stderr)")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let drive = directory.appendingPathComponent("drive.nmea")
        let sentences = try String(contentsOf: Repository.url("Data/drives/mannerheimintie.nmea"), encoding: .utf8)
            .split(separator: "\n").prefix(110)
        try (sentences.joined(separator: "\n") + "\n").write(to: drive, atomically: true, encoding: .utf8)
        let feed = path("traffic.json")
        try #"{"trafficModelId": "none", "generatedAt": "2026-03-02T09:59:00Z", "validUntil": "2099-01-01T00:00:00Z"}"#
            .write(toFile: feed, atomically: true, encoding: .utf8)
        try Self.feed(jam: jam, route: route).write(toFile: path("staged.json"), atomically: true, encoding: .utf8)
        // Only the traffic-delay rule (or a blockage) can make a route better here.
        try """
        [map]
        path = "\(map)"
        [gnss]
        source = "nmea"
        nmea_path = "\(drive.path)"
        [can]
        interface = "vcan0"
        [dbus]
        enabled = true
        bus = "session"
        [routing]
        acceptance = "\(acceptance)"
        min_time_difference_s = 3600
        min_traffic_delay_s = 60
        [traffic]
        feed = "\(feed)"
        check_interval_s = 0.5
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let (errors, signals) = (path("adasis.err"), path("signals.txt"))
        let policy = Repository.url("udev/org.adasis.Horizon1.conf").path
        let result = try runInVcanKernel(
            scriptFunctions + """
                \(privateBusScript(directory: directory.path, policy: policy, errors: path("dbus.err")))
                dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" "type='signal',interface='org.adasis.Horizon1.Route'" > '\(signals)' 2>&1 &
                monitor=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                call() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.adasis.Horizon1 /org/adasis/Horizon1 org.adasis.Horizon1.Route "$@" 2>&1; }
                wait_for 60 "the daemon's name on the bus" grep -q 'org.adasis.Horizon1 owned' '\(errors)'
                set_destination() { answer=$(call SetDestination 'dda(dd)' \(destination.latitude) \(destination.longitude) 0); [[ $answer == "u "* ]]; }
                wait_for 150 "a position to plan from" set_destination
                echo "set=$answer"
                cp '\(path("staged.json"))' '\(feed).new' && mv '\(feed).new' '\(feed)'
                wait_for 60 "the route's answer to the feed" grep -q 'string "\(reason)"' '\(signals)'
                sleep 2
                kill -TERM $daemon
                wait $daemon
                status=$?
                kill $monitor
                kill -9 $bus
                echo "adasis-exit=$status"
                """)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("set=u 1"), "\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("adasis-exit=0"), "\(result.stdout)\n\(daemonLog)")
        let heard = (try? String(contentsOfFile: signals, encoding: .utf8)) ?? ""
        // The signal and its reason, in one message (dbus-monitor prints a message's arguments
        // after its header line).
        let messages = heard.components(separatedBy: "signal time=").filter { $0.contains(signal) }
        #expect(messages.contains { $0.contains("string \"\(reason)\"") }, "\(heard.prefix(3000))\n\(daemonLog)")
        if acceptance == "manual" {
            #expect(
                !heard.components(separatedBy: "signal time=").contains {
                    $0.contains("member=ActiveRouteChanged") && $0.contains("better_route")
                }, "manual acceptance must not switch by itself")
        }
    }
}
