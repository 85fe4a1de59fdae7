import Foundation
import Testing
import TestSupport

/// dbus-daemon, busctl and dbus-monitor, if installed (Debian packages dbus and systemd).
private let tools = ["/usr/bin/dbus-daemon", "/usr/bin/busctl", "/usr/bin/dbus-monitor"]
let runsBusEndToEnd =
    tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    || ProcessInfo.processInfo.environment["CI"] != nil

/// A drive on Mannerheimintie, a destination the drive turns away from after ≈ 33 s: the
/// route session replans from where the vehicle is (`adasis replay --destination 60.1690,24.9330`
/// on the same drive shows the deviation at 33.0 s).
private let destination = (latitude: 60.1690, longitude: 24.9330)

/// Bash that starts a private dbus-daemon with the shipped policy (`udev/org.adasis.Horizon1.conf`,
/// its users replaced by root: the daemon runs as root in the test kernel, user adasis in
/// deployment) and exports `DBUS_SESSION_BUS_ADDRESS`; `$bus` is its process id. Needs
/// `wait_for`. The bus's default policy is the system bus's (deny method calls, allow signals
/// and replies).
func privateBusScript(directory: String, policy: String, errors: String) -> String {
    """
    sockets=$(mktemp -d -p /run adasis-bus.XXXXXX 2>/dev/null || mktemp -d -p '\(directory)' bus.XXXXXX)
    trap 'rm -rf "$sockets"' EXIT
    chmod 0755 "$sockets"
    sed -e 's/user="adasis"/user="root"/' -e 's/group="adasis-nav"/group="root"/' '\(policy)' > "$sockets/policy.conf"
    cat > "$sockets/bus.conf" <<EOF
    <busconfig>
      <type>system</type>
      <listen>unix:path=$sockets/bus</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow user="*"/>
        <deny own="*"/>
        <deny send_type="method_call"/>
        <allow send_type="signal"/>
        <allow send_requested_reply="true" send_type="method_return"/>
        <allow send_requested_reply="true" send_type="error"/>
        <allow receive_type="method_call"/>
        <allow receive_type="method_return"/>
        <allow receive_type="error"/>
        <allow receive_type="signal"/>
        <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
      </policy>
      <policy user="root">
        <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>
      </policy>
      <include>$sockets/policy.conf</include>
    </busconfig>
    EOF
    dbus-daemon --nofork --nopidfile --nosyslog --config-file="$sockets/bus.conf" 2> '\(errors)' &
    bus=$!
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$sockets/bus"
    wait_for 30 "the bus socket" test -S "$sockets/bus"
    """
}

@Suite("adasis run's route interface end to end", .serialized)
struct RouteBusEndToEndTests {
    @Test(
        "private bus with the shipped policy → SetDestination → the route is the main path on vcan0; a deviation replans and signals; an outsider is refused",
        .enabled(if: runsBusEndToEnd, "dbus is not installed (apt-get install dbus)"))
    func routeOverDBus() throws {
        let (directory, map, _, _, config) = try RunDaemonTests.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The drive's first 55 s, read at the pace of its fixes (no gpsd: its pacing is what a
        // loaded host upsets first).
        let drive = directory.appendingPathComponent("drive.nmea")
        let sentences = try String(contentsOf: Repository.url("Data/drives/mannerheimintie.nmea"), encoding: .utf8)
            .split(separator: "\n").prefix(110)
        try (sentences.joined(separator: "\n") + "\n").write(to: drive, atomically: true, encoding: .utf8)
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

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let (log, errors, signals) = (path("can.log"), path("adasis.err"), path("signals.txt"))
        let policy = Repository.url("udev/org.adasis.Horizon1.conf").path
        // The shipped policy with the test's users: the daemon runs as root here (user adasis in
        // deployment), and root's group stands for adasis-nav. The bus's default policy is the
        // system bus's (deny method calls, allow signals and replies).
        let result = try runInVcanKernel(
            #"""
            wait_for() { local limit=$1 what=$2 i; shift 2
              for ((i = 0; i < limit * 4; i++)); do "$@" && return 0; sleep 0.25; done
              echo "timed out after ${limit}s waiting for $what" >&2; return 1; }
            """# + """

                \(privateBusScript(directory: directory.path, policy: policy, errors: path("dbus.err")))
                dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" "type='signal',interface='org.adasis.Horizon1.Route'" > '\(signals)' 2>&1 &
                monitor=$!
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                call() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.adasis.Horizon1 /org/adasis/Horizon1 org.adasis.Horizon1.Route "$@" 2>&1; }
                wait_for 60 "the daemon's name on the bus" grep -q 'org.adasis.Horizon1 owned' '\(errors)'
                # The destination as soon as the daemon has a position (NoPosition before the first fix).
                set_destination() { at=$(date +%s.%N); answer=$(call SetDestination 'dda(dd)' \(destination.latitude) \(destination.longitude) 0); [[ $answer == "u "* ]]; }
                wait_for 150 "a position to plan from" set_destination
                echo "set-at=$at"
                echo "set=$answer"
                echo "offmap=$(call SetDestination 'dda(dd)' 61.5 23.8 0)"
                echo "outsider=$(setpriv --reuid=65534 --regid=65534 --clear-groups busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.adasis.Horizon1 /org/adasis/Horizon1 org.adasis.Horizon1.Route GetRoute 2>&1; echo " status $?")"
                wait_for 90 "a route replanned after the deviation" grep -q 'string "deviation"' '\(signals)'
                sleep 2
                echo "route=$(call GetRoute)"
                kill -TERM $daemon
                wait $daemon
                status=$?
                sleep 0.3
                kill $dumper $monitor
                kill -9 $bus
                echo "adasis-exit=$status"
                """)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        func value(_ key: String) -> String { scriptValue(key, in: result.stdout) ?? "" }
        #expect(value("adasis-exit") == "0", "\(result.stdout)\n\(daemonLog)")

        // The call is answered with the new route's id; a point off the map is refused by name.
        #expect(value("set") == "u 1", "\(result.stdout)\n\(daemonLog)")
        #expect(value("offmap").contains("no drivable road within"), "\(value("offmap"))")
        // (c) A caller outside the allowed group (user nobody) is refused by the bus's policy.
        let outsider = value("outsider")
        #expect(
            outsider.contains("Access denied") || outsider.contains("AccessDenied")
                || outsider.contains("Rejected send message"), "\(outsider)")
        #expect(!outsider.hasSuffix("status 0"), "\(outsider)")

        // (b) The drive leaves the route: Deviated, then a new route active for that reason.
        let heard = try String(contentsOfFile: signals, encoding: .utf8)
        #expect(heard.contains("member=Deviated"), "\(heard.prefix(2000))")
        #expect(heard.contains("member=ActiveRouteChanged") && heard.contains("string \"deviation\""))
        let route = value("route")
        #expect(route.hasPrefix("ua(tb)dda(dd) ") && !route.hasPrefix("ua(tb)dda(dd) 1 "), "\(route)")

        // (a) The route is the main path on the bus: SEGMENTs flagged PartOfCalculatedRoute on the
        // path POSITION reports, and none before the destination was set.
        let setAt = try #require(Double(value("set-at")), "\(result.stdout)")
        let decoded = try runAdasis(["decode", log])
        #expect(decoded.status == 0)
        var mainPath: String?
        var flaggedBefore = 0, flaggedOnMain = 0, flaggedElsewhere = 0
        for line in decoded.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count > 3, let time = Double(parts[0]) else { continue }
            let path = parts.first { $0.hasPrefix("PathIndex=") }
            // The vehicle's own POSITION (PositionIndex 0) names the main path; alternatives name side paths.
            if parts[2] == "position", parts.contains("PositionIndex=0") { mainPath = path.map(String.init) }
            guard parts[2] == "segment", line.contains("PartOfCalculatedRoute=1") else { continue }
            if time < setAt {
                flaggedBefore += 1
            } else if path.map(String.init) == mainPath {
                flaggedOnMain += 1
            } else {
                flaggedElsewhere += 1
            }
        }
        #expect(flaggedBefore == 0)
        #expect(flaggedOnMain >= 5, "\(flaggedOnMain) route segments on the main path, \(flaggedElsewhere) elsewhere")
        #expect(daemonLog.contains("route 1 active (manual)") && daemonLog.contains("(deviation)"), "\(daemonLog)")
    }
}
