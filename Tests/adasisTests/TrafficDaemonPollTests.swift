import Foundation
import Testing
import TestSupport

/// `adasis run` with `[traffic] url`: the daemon polls a loopback HTTP server (Python's
/// http.server, serving a directory) with traffic-model-id sync during a gpsfake drive on vcan0.
extension TrafficDaemonTests {
    @Test(
        "HTTP polling: a truncated model is counted, the incident goes out on CAN only after the model id changes, a server gone marks the traffic stale",
        .enabled(if: runsEndToEnd, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"))
    func incidentPolledOverHTTP() throws {
        let (directory, map, port, metrics, config) = try RunDaemonTests.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let drive = try runAdasis(["horizon", "--map", map, "Data/drives/mannerheimintie.nmea", "--at", "50"])
        let fix = try #require(
            JSONSerialization.jsonObject(with: Data(drive.stdout.utf8)) as? [String: Any], "\(drive.stderr)")
        let link = try #require(fix["link_id"] as? String)
        let incident = #"{"id": "crash", "iconCategory": 1, "delay": 300, "links": ["\#(link)"]}"#

        // The server's directory: the model id (plain text) and one feed per model.
        let served = directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        try "m1".write(to: served.appendingPathComponent("model"), atomically: true, encoding: .utf8)
        try Self.feed(model: "m1", incidents: "").write(
            to: served.appendingPathComponent("feed-m1.json"), atomically: true, encoding: .utf8)
        let full = Self.feed(model: "m3", incidents: incident)
        try String(full.prefix(full.count / 2)).write(
            to: served.appendingPathComponent("feed-m2.json"), atomically: true, encoding: .utf8)
        try full.write(to: served.appendingPathComponent("feed-m3.json"), atomically: true, encoding: .utf8)
        let httpPort = Int(try freePort())
        let base = "http://127.0.0.1:\(httpPort)"
        try
            (gpsdConfiguration(map: map, port: port, preset: "all", metrics: metrics, metricsInterval: 0.5) + """
                [traffic]
                url = "\(base)/feed-{trafficModelId}.json"
                model_id_url = "\(base)/model"
                poll_seconds = 1
                cache_dir = "\(directory.appendingPathComponent("cache").path)"
                """).write(toFile: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("can.log").path
        let errors = directory.appendingPathComponent("adasis.err").path
        let switched = directory.appendingPathComponent("switched").path
        let model = served.appendingPathComponent("model").path
        let script =
            scriptFunctions + """
                python3 -m http.server --bind 127.0.0.1 --directory '\(served.path)' \(httpPort) >/dev/null 2>&1 &
                server=$!
                wait_for 30 "the HTTP server" python3 -c 'import urllib.request; urllib.request.urlopen("\(base)/model")'
                start_gpsfake \(port) '\(directory.path)' /dev/null
                sleep 1
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                wait_for 150 "a POSITION on a path" on_path '\(log)'
                wait_for 30 "model m1" grep -q 'model m1) applied' '\(errors)'
                echo m2 > '\(model).new' && mv '\(model).new' '\(model)'
                wait_for 30 "the truncated model's failure" grep -q 'feed-m2.json: the answer was refused' '\(errors)'
                date +%s.%N > '\(switched)'
                echo m3 > '\(model).new' && mv '\(model).new' '\(model)'
                wait_for 30 "model m3" grep -q 'model m3) applied' '\(errors)' && sleep 4
                kill $server
                wait_for 30 "the stale gauge" grep -q '^adasis_traffic_stale 1' '\(metrics)'
                stop_daemon
                sleep 0.3
                kill $dumper
                stop_gpsfake
                echo "adasis-exit=$status"
                """
        let result = try runInVcanKernel(script)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)")
        #expect(result.stdout.contains("adasis-exit=0"), "\(result.stdout)\n\(result.stderr)\n\(daemonLog)")
        #expect(daemonLog.contains("1 incidents"), "\(daemonLog)")

        // The stream split at the moment the model id changed to m3: the incident only after it.
        let change = try #require(
            Double(
                ((try? String(contentsOfFile: switched, encoding: .utf8)) ?? "").trimmingCharacters(
                    in: .whitespacesAndNewlines)),
            "\(result.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let before = lines.filter { line in
            Double(line.dropFirst().prefix { $0 != ")" }).map { $0 < change } ?? false
        }
        #expect(before.count > 100 && before.count < lines.count, "\(before.count) of \(lines.count) frames")
        let early = directory.appendingPathComponent("before.log").path
        try (before.joined(separator: "\n") + "\n").write(toFile: early, atomically: true, encoding: .utf8)
        let rebuiltBefore = try runAdasis(["reconstruct", early])
        #expect(rebuiltBefore.status == 0, "\(rebuiltBefore.stderr)")
        #expect(!rebuiltBefore.stdout.contains("object incident (13)"), "\(rebuiltBefore.stdout)")
        let rebuilt = try runAdasis(["reconstruct", log])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(
            rebuilt.stdout.contains("object incident (13)"), "no incident rebuilt:\n\(rebuilt.stdout)\n\(daemonLog)")

        let prometheus = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
        #expect(
            prometheus.contains("adasis_traffic_polls_failed_total{reason=\"feed_malformed_json\"} "), "\(prometheus)")
        #expect(
            prometheus.contains("adasis_traffic_polls_failed_total{reason=\"model_id_connection_failed\"} "),
            "\(prometheus)")
        #expect(prometheus.contains("adasis_traffic_feeds_applied_total 2"), "\(prometheus)")
        #expect(prometheus.contains("adasis_traffic_stale 1"), "\(prometheus)")
        // Polling kept the incident model while the server was gone.
        #expect(daemonLog.contains("keeping traffic model m3"), "\(daemonLog)")
    }
}
