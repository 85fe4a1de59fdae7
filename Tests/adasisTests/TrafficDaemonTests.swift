import Foundation
import Testing
import TestSupport

/// `adasis run` with `[traffic] feed`: the feed file is replaced during a gpsfake drive on vcan0;
/// a truncated feed is refused and counted, the next one's incident ahead goes out on CAN and is
/// rebuilt by `adasis reconstruct` from what candump recorded.
@Suite("adasis run with a traffic feed", .serialized)
struct TrafficDaemonTests {
    /// A feed valid from before the drive (Data/drives/mannerheimintie.nmea, 2026-03-02 10:00 UTC)
    /// for as long as any test runs, whatever time gpsd reports; its traffic model id is `model`.
    static func feed(model: String = UUID().uuidString, incidents: String) -> String {
        """
        {"trafficModelId": "\(model)", "generatedAt": "2026-03-02T09:59:00Z",
         "validUntil": "2099-01-01T00:00:00Z", "incidents": [\(incidents)]}
        """
    }

    @Test(
        "a scripted feed: the truncated version is refused and counted, the incident ahead goes out on CAN and is rebuilt",
        .enabled(if: runsEndToEnd, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"))
    func incidentOnCAN() throws {
        let (directory, map, port, metrics, config) = try RunDaemonTests.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The link the drive is on 50 s after its start: ahead of the vehicle when the feed changes.
        let drive = try runAdasis(["horizon", "--map", map, "Data/drives/mannerheimintie.nmea", "--at", "50"])
        let fix = try #require(
            JSONSerialization.jsonObject(with: Data(drive.stdout.utf8)) as? [String: Any], "\(drive.stderr)")
        let link = try #require(fix["link_id"] as? String)
        let incident = #"{"id": "crash", "iconCategory": 1, "delay": 300, "links": ["\#(link)"]}"#

        let feed = directory.appendingPathComponent("traffic.json").path
        try Self.feed(incidents: "").write(toFile: feed, atomically: true, encoding: .utf8)
        let full = Self.feed(incidents: incident)
        let staged = directory.appendingPathComponent("staged").path
        try String(full.prefix(full.count / 2)).write(
            toFile: staged + ".truncated", atomically: true, encoding: .utf8)
        try full.write(toFile: staged + ".json", atomically: true, encoding: .utf8)
        try
            (gpsdConfiguration(map: map, port: port, preset: "all", metrics: metrics, metricsInterval: 0.5) + """
                [traffic]
                feed = "\(feed)"
                check_interval_s = 0.5
                """).write(toFile: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("can.log").path
        let errors = directory.appendingPathComponent("adasis.err").path
        // 8 s after the incident feed is applied (4 s until stop 24: in a loaded QEMU/TCG kernel the
        // first fix paused the daemon 12 s and the incident had not reached CAN when it stopped);
        // the link stays ahead meanwhile (it is where the drive is at 50 s).
        let script =
            scriptFunctions + """
                start_gpsfake \(port) '\(directory.path)' /dev/null
                sleep 1
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                wait_for 150 "a POSITION on a path" on_path '\(log)'
                wait_for 30 "the first feed" grep -q 'applied' '\(errors)'
                cp '\(staged).truncated' '\(feed).new' && mv '\(feed).new' '\(feed)'
                wait_for 30 "the refusal" grep -qE 'refused \\((no traffic|keeping)' '\(errors)'
                cp '\(staged).json' '\(feed).new' && mv '\(feed).new' '\(feed)'
                wait_for 30 "the incident feed" sh -c "[ \\$(grep -c 'applied' '\(errors)') -ge 2 ]" && sleep 8
                stop_daemon
                sleep 0.3
                kill $dumper
                stop_gpsfake
                echo "adasis-exit=$status"
                """
        let result = try runInVcanKernel(script)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)")
        #expect(result.stdout.contains("adasis-exit=0"), "\(result.stdout)\n\(daemonLog)")
        #expect(
            daemonLog.contains("refused (no traffic meanwhile)") || daemonLog.contains("refused (keeping"),
            "\(daemonLog)")
        #expect(daemonLog.contains("1 incidents"), "\(daemonLog)")

        let rebuilt = try runAdasis(["reconstruct", log])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let incidents = rebuilt.stdout.split(separator: "\n").filter { $0.contains("object incident (13)") }
        #expect(!incidents.isEmpty, "no incident rebuilt:\n\(rebuilt.stdout)\n\(daemonLog)")
        let prometheus = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
        // The daemon's log goes with the metrics: once (stop 28, a loaded machine) the refusal was
        // counted twice, and the log is what tells which feed versions the daemon read.
        #expect(
            prometheus.contains("adasis_traffic_feeds_refused_total{reason=\"malformed_json\"} 1"),
            "\(prometheus)\n\(daemonLog)")
        #expect(prometheus.contains("adasis_traffic_feeds_applied_total 2"), "\(prometheus)\n\(daemonLog)")
    }
}
