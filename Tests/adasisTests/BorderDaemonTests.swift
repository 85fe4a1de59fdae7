import Foundation
import Testing
import TestSupport

/// dbus-daemon and busctl, if installed (Debian packages dbus and systemd).
private let busTools = ["/usr/bin/dbus-daemon", "/usr/bin/busctl"]
private let runsBorderDaemon =
    busTools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    || ProcessInfo.processInfo.environment["CI"] != nil

/// `adasis run` on the two-country map (Data/border), on vcan0 in a real kernel, with the route
/// and custom-object interfaces on a private bus. The vehicle drives west along the southern road
/// from Austria into Germany: META-DATA follows it across the border, the German fixed camera
/// ahead (forbidden by the shipped legal table where it stands) never goes on the bus while the
/// Austrian one does, a custom object added over D-Bus goes out after the call, and one added
/// with `adasis objects` goes out after SIGHUP.
@Suite("adasis run across the border", .serialized)
struct BorderDaemonTests {
    /// The drive as NMEA (RMC + GGA, 1 Hz): west along latitude 47.80 from 12.975 to 12.925 at
    /// 50 m/s (75 s), so the run takes little more than a minute. The Austrian camera (12.97,
    /// 80 km/h) is passed after 8 s, the border (12.95) after 37 s, the German camera (12.93,
    /// 100 km/h) after 67 s.
    /// A temporary directory with `extract` (in Data/border) imported as a map and ``drive()``
    /// written as drive.nmea; `path` names a file in the directory.
    static func prepareRun(extract: String) throws -> (directory: URL, path: (String) -> String, map: String) {
        try requireBuiltAdasis()
        let directory = ScratchDirectory.url("border-run-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        let map = path("border.map")
        let imported = try runAdasis(["map", "import", "Data/border/" + extract, "-o", map])
        try #require(imported.status == 0, "\(imported.stderr)")
        try drive().write(toFile: path("drive.nmea"), atomically: true, encoding: .utf8)
        return (directory, path, map)
    }

    /// The configuration's first sections for a border run: the map, the NMEA file `drive`, CAN on
    /// vcan0, every message and profile.
    static func nmeaConfiguration(map: String, drive: String) -> String {
        """
        [map]
        path = "\(map)"
        [gnss]
        source = "nmea"
        nmea_path = "\(drive)"
        [can]
        interface = "vcan0"
        [messages]
        preset = "all"
        """
    }

    static func drive() -> String {
        let metresPerDegree = 111_195 * cos(47.8 * .pi / 180)
        var lines: [String] = []
        func sentence(_ body: String) -> String {
            let checksum = body.utf8.reduce(UInt8(0), ^)
            return "$" + body + "*" + String(format: "%02X", checksum)
        }
        for second in 0...75 {
            let longitude = 12.975 - Double(second) * 50 / metresPerDegree
            let time = String(format: "12%02d%02d.00", second / 60, second % 60)
            let minutes = (longitude - 12) * 60
            let lon = String(format: "012%08.5f", minutes), lat = "4748.00000"
            lines.append(sentence("GPRMC,\(time),A,\(lat),N,\(lon),E,97.19,270.0,250426,,,A"))
            lines.append(sentence("GPGGA,\(time),\(lat),N,\(lon),E,1,08,1.0,420.0,M,47.0,M,,"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "META-DATA follows the border; the German camera is never sent; custom objects by D-Bus and by SIGHUP",
        .enabled(if: runsBorderDaemon, "dbus is not installed (apt-get install dbus)"))
    func acrossTheBorder() throws {
        let (directory, path, map) = try Self.prepareRun(extract: "de-at-border.osm.pbf")
        defer { try? FileManager.default.removeItem(at: directory) }
        try """
        \(Self.nmeaConfiguration(map: map, drive: path("drive.nmea")))
        [dbus]
        enabled = true
        bus = "session"

        """.write(toFile: path("adasis.toml"), atomically: true, encoding: .utf8)
        // A point on the German side (12.945) and a line further west (12.94 → 12.936, drawn westward).
        try #"{"type":"Feature","id":"school-de","geometry":{"type":"Point","coordinates":[12.945,47.8001]}}"#.write(
            toFile: path("point.geojson"), atomically: true, encoding: .utf8)
        try
            #"{"type":"Feature","id":"works-de","geometry":{"type":"LineString","coordinates":[[12.94,47.8],[12.936,47.8]]}}"#
            .write(toFile: path("line.geojson"), atomically: true, encoding: .utf8)
        let (log, errors, store) = (path("can.log"), path("adasis.err"), map + ".objects")
        let result = try runInVcanKernel(
            scriptFunctions + """
                sockets=$(mktemp -d -p /run adasis-bus.XXXXXX 2>/dev/null || mktemp -d -p '\(directory.path)' bus.XXXXXX)
                trap 'rm -rf "$sockets"' EXIT
                cat > "$sockets/bus.conf" <<EOF
                <busconfig>
                  <type>session</type>
                  <listen>unix:path=$sockets/bus</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
                </busconfig>
                EOF
                dbus-daemon --nofork --nopidfile --nosyslog --config-file="$sockets/bus.conf" 2>/dev/null &
                bus=$!
                export DBUS_SESSION_BUS_ADDRESS="unix:path=$sockets/bus"
                wait_for 30 "the bus socket" test -S "$sockets/bus"
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(path("adasis.toml"))' 2> '\(errors)' &
                daemon=$!
                call() { busctl --address="$DBUS_SESSION_BUS_ADDRESS" call org.adasis.Horizon1 /org/adasis/Horizon1 org.adasis.Horizon1.Objects "$@" 2>&1; }
                wait_for 60 "the daemon's name on the bus" grep -q 'org.adasis.Horizon1 owned' '\(errors)'
                wait_for 60 "a horizon" grep -q ' 361#' '\(log)'
                sleep 2
                echo "added-at=$(date +%s.%N)"
                echo "added=$(call AddObject s "$(cat '\(path("point.geojson"))')")"
                cp '\(store)' '\(store).before'
                echo "duplicate=$(call AddObject s "$(cat '\(path("point.geojson"))')")"
                echo "malformed=$(call AddObject s '{"type":"Feature"')"
                echo "unknown=$(call RemoveObject s nothing)"
                cmp -s '\(store)' '\(store).before' && echo "store-unchanged=yes"
                echo "listed=$(call ListObjects)"
                echo "cli=$(.build/debug/adasis objects add --map '\(map)' '\(path("line.geojson"))' 2>&1)"
                sleep 1
                echo "hup-at=$(date +%s.%N)"
                kill -HUP $daemon
                wait_for 240 "the end of the drive" grep -q 'ended: no more fixes' '\(errors)' && sleep 2
                kill -TERM $daemon
                wait $daemon
                status=$?
                sleep 0.3
                kill $dumper
                kill -9 $bus
                echo "adasis-exit=$status"
                """)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        func value(_ key: String) -> String { scriptValue(key, in: result.stdout) ?? "" }
        #expect(value("adasis-exit") == "0", "\(result.stdout)\n\(daemonLog)")

        // The bus calls: added with its pieces; the refusals by name, the store's bytes unchanged.
        #expect(value("added").hasPrefix("sa(tsdd) \"school-de\" 1 "), "\(result.stdout)")
        #expect(value("duplicate").contains("an object with id 'school-de' is stored already"), "\(result.stdout)")
        #expect(value("malformed").contains("malformed GeoJSON"), "\(result.stdout)")
        #expect(value("unknown").contains("no object with id 'nothing' is stored"), "\(result.stdout)")
        #expect(value("store-unchanged") == "yes")
        #expect(value("listed").hasPrefix("a(ssa(tsdd)) 1 \"school-de\" \"point\" "), "\(result.stdout)")
        #expect(value("cli").hasPrefix("added works-de (number 2): "), "\(result.stdout)")

        // What went on the bus.
        let decoded = try runAdasis(["decode", log])
        #expect(decoded.status == 0, "\(decoded.stderr.prefix(500))")
        struct Frame {
            var time: Double
            var type: String
            var fields: [String: String]
        }
        let frames: [Frame] = decoded.stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count > 3, let time = Double(parts[0]) else { return nil }
            var fields: [String: String] = [:]
            // `Value1=80(80 km/h enforced)`: the raw value before the decoder's explanation.
            for part in parts.dropFirst(3) {
                let pair = part.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[String(pair[0])] = String(pair[1].prefix { $0 != "(" }) }
            }
            return Frame(time: time, type: String(parts[2]), fields: fields)
        }
        func profiles(_ type: String) -> [Frame] {
            frames.filter { $0.type == "profileShort" && $0.fields["ProfileType"] == type }
        }
        // Cameras (16): the Austrian one (80 km/h) is sent, the German ones (100 km/h) never.
        let cameras = profiles("16")
        #expect(cameras.contains { $0.fields["Value1"] == "80" }, "\(cameras.map(\.fields))")
        #expect(!cameras.contains { $0.fields["Value1"] == "100" }, "\(cameras.map(\.fields))")
        // META-DATA: Austria (40) where the vehicle is first matched, then Germany (276) once it
        // crossed, and never back (before the first fix it carries the map's first country).
        let countries = frames.filter { $0.type == "metaData" }.compactMap { $0.fields["CountryCode"] }
        let fromAustria = countries.drop { $0 != "40" }
        #expect(fromAustria.first == "40" && fromAustria.last == "276", "\(countries)")
        #expect(fromAustria.drop { $0 == "40" }.allSatisfy { $0 == "276" }, "\(countries)")
        // The custom objects (code 14): the point only after its call, the line only after SIGHUP.
        let addedAt = try #require(Double(value("added-at")), "\(result.stdout)")
        let hupAt = try #require(Double(value("hup-at")), "\(result.stdout)")
        let points = profiles("18").filter { $0.fields["Value0"] == "14" }
        let stretches = profiles("19").filter { $0.fields["Value0"] == "14" }
        #expect(!points.isEmpty && points.allSatisfy { $0.time > addedAt }, "\(points.map(\.time)) vs \(addedAt)")
        #expect(!stretches.isEmpty && stretches.allSatisfy { $0.time > hupAt }, "\(stretches.map(\.time)) vs \(hupAt)")

        // The reconstructor: the country and region change from Salzburg to Bayern.
        let rebuilt = try runAdasis(["reconstruct", log])
        try #require(rebuilt.status == 0, "\(rebuilt.stderr)")
        let changes = try #require(
            rebuilt.stdout.split(separator: "\n").first { $0.hasPrefix("country changes: ") },
            "\(rebuilt.stdout.prefix(600))")
        let places = changes.dropFirst("country changes: ".count).components(separatedBy: " → ").map {
            $0.split(separator: " ", maxSplits: 2).dropFirst(2).joined()
        }
        #expect(places.suffix(2) == ["AT/AUT AT-5", "DE/DEU DE-BY"], "\(changes)")
        #expect(daemonLog.contains("custom objects changed: horizon rebuilt"), "\(daemonLog)")
    }
}
