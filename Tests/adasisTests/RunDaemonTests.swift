import Foundation
import SocketCAN
import Testing
import TestSupport

/// gpsfake (Debian package gpsd-clients), if installed.
let gpsfake = ["/usr/bin/gpsfake", "/usr/local/bin/gpsfake"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}
/// In CI the end-to-end test must run (and fail loudly if gpsfake is missing); locally it is
/// skipped with a message when gpsfake is not installed.
let runsEndToEnd = gpsfake != nil || ProcessInfo.processInfo.environment["CI"] != nil

/// The start of an `adasis run` configuration for the end-to-end tests: `map`, gpsd (gpsfake) on
/// loopback `port`, vcan0, the message `preset` and the `metrics` file written every
/// `metricsInterval` seconds when given; each test appends its own tables.
func gpsdConfiguration(
    map: String, port: Int, preset: String? = nil, metrics: String? = nil, metricsInterval: Double = 1
) -> String {
    var text = """
        [map]
        path = "\(map)"
        [gnss]
        source = "gpsd"
        gpsd_port = \(port)
        [can]
        interface = "vcan0"

        """
    if let preset { text += "[messages]\npreset = \"\(preset)\"\n" }
    if let metrics { text += "[metrics]\ntextfile = \"\(metrics)\"\ninterval_s = \(metricsInterval)\n" }
    return text
}

/// A fresh directory in the ``ScratchDirectory``.
private func temporaryDirectory() throws -> URL {
    let url = ScratchDirectory.url("run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// One line of `adasis decode` output: time, identifier, message type, fields.
private struct DecodedFrame {
    var time: Double
    var type: String
    var fields: [String: String]

    init?(_ line: Substring) {
        let parts = line.split(separator: " ")
        guard parts.count >= 3, let time = Double(parts[0]) else { return nil }
        self.time = time
        type = String(parts[2])
        fields = [:]
        for part in parts.dropFirst(3) {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
    }
}

/// Bash functions for the scripts below: they wait for what they need (bounded) instead of
/// sleeping a fixed time, so that they hold in a slow kernel (QEMU with TCG) as in a fast one.
let scriptFunctions = #"""
    wait_for() {  # wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds
      local limit=$1 what=$2 i; shift 2
      for ((i = 0; i < limit * 4; i++)); do "$@" && return 0; sleep 0.25; done
      echo "timed out after ${limit}s waiting for $what" >&2; return 1
    }
    # A new directory for Unix sockets: on the guest's tmpfs /run where there is one (the host's
    # file system, as QEMU's 9p shows it, cannot hold sockets), else under the test's directory.
    socket_directory() { mktemp -d -p /run gpsfake.XXXXXX 2>/dev/null || mktemp -d -p "$1" gpsfake.XXXXXX; }
    # A POSITION (identifier 361) on a path: PathIndex, the low 6 bits of byte 2, is 8 or more.
    on_path() { grep ' 361#' "$1" 2>/dev/null | grep -qvE ' 361#[0-9A-F]{4}[048C][0-7]'; }
    # start_gpsfake PORT DIRECTORY OUTPUT: gpsd on loopback PORT fed the Mannerheimintie drive by
    # gpsfake (-c 0.5: one RMC+GGA epoch per second, the drive's own pace), its output to OUTPUT;
    # sets faker. Its control socket goes to a TMPDIR of its own under /run or DIRECTORY
    # (socket_directory): process ids inside a VM repeat from run to run, and a stale
    # /tmp/gpsfake-PID.sock left by an earlier run makes gpsd ignore the fake device.
    start_gpsfake() {
      sockets=$(socket_directory "$2"); trap 'rm -rf "$sockets"' EXIT
      TMPDIR="$sockets" \#(gpsfake ?? "gpsfake") -P "$1" -1 -q -c 0.5 Data/drives/mannerheimintie.nmea > "$3" 2>&1 &
      faker=$!
    }
    # stop_gpsfake: gpsfake ignores SIGTERM while its gpsd runs, so both go by process id.
    stop_gpsfake() {
      local daemons; daemons=$(pgrep -f "gpsfake-$faker.sock")
      kill $faker 2>/dev/null; sleep 0.3; kill -9 $faker $daemons 2>/dev/null
    }
    # stop_daemon: SIGTERM to the daemon (process $daemon); sets status to its exit status.
    stop_daemon() { kill -TERM $daemon; wait $daemon; status=$?; }

    """#

@Suite("adasis run end to end", .serialized)
struct RunDaemonTests {
    /// A temporary directory with the sample map imported, a free gpsd port, and the paths of the
    /// metrics file and the configuration to write.
    static func prepare() throws -> (directory: URL, map: String, port: Int, metrics: String, config: String) {
        try requireBuiltAdasis()
        let directory = try temporaryDirectory()
        let map = directory.appendingPathComponent("helsinki.map").path
        let imported = try runAdasis([
            "map", "import", Repository.root.appendingPathComponent("Data/helsinki.osm.pbf").path,
            "-o", map, "--country", "FI",
        ])
        try #require(imported.status == 0, "map import failed: \(imported.stderr)")
        return (
            directory, map, Int(try freePort()), directory.appendingPathComponent("adasis.prom").path,
            directory.appendingPathComponent("adasis.toml").path
        )
    }

    @Test(
        "gpsfake drive → adasis run (unprivileged) → vcan0: a decodable ADASIS stream, metrics, clean SIGTERM",
        .enabled(if: runsEndToEnd, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"))
    func endToEnd() throws {
        let (directory, map, port, metrics, config) = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        try
            (gpsdConfiguration(map: map, port: port, metrics: metrics) + """
                [logging]
                level = "info"
                """).write(toFile: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("can.log").path
        let errors = directory.appendingPathComponent("adasis.err").path
        let script =
            scriptFunctions + """
                start_gpsfake \(port) '\(directory.path)' '\(directory.path)/gpsfake.log'
                sleep 1
                candump -L vcan0 > '\(log)' &
                dumper=$!
                # Unprivileged, as deployed: user nobody, no capabilities (raw CAN sockets need none).
                chmod 0777 '\(directory.path)'
                setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
                    .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                # Once the daemon is on a path, 1 s to settle and 12 s of POSITIONs, then stop.
                wait_for 150 "a POSITION on a path" on_path '\(log)' && sleep 13
                stop_daemon
                sleep 0.3
                kill $dumper
                stop_gpsfake
                echo "adasis-exit=$status"
                echo "backend=$VCAN_RUN_BACKEND_USED"
                """
        let result = try runInVcanKernel(script)
        let daemonLog =
            ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>")
            + "\ngpsfake: "
            + ((try? String(contentsOfFile: directory.appendingPathComponent("gpsfake.log").path, encoding: .utf8))
                ?? "")
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("adasis-exit=0"), "adasis did not exit 0: \(result.stdout)\n\(daemonLog)")
        #expect(daemonLog.contains("SIGTERM: stopping"))

        // The recorded stream decodes completely.
        let decoded = try runAdasis(["decode", log])
        #expect(decoded.status == 0)
        #expect(decoded.stderr.isEmpty, "undecodable or unknown frames: \(decoded.stderr.prefix(500))")
        let frames = decoded.stdout.split(separator: "\n").compactMap(DecodedFrame.init)
        let recorded = CandumpLog.parse(text: try String(contentsOfFile: log, encoding: .utf8)).records
        #expect(frames.count == recorded.count && !frames.isEmpty)

        // What an ECU rebuilds from the recording: META-DATA of Finland and a main path with segments.
        let rebuilt = try runAdasis(["reconstruct", log])
        #expect(rebuilt.status == 0)
        #expect(rebuilt.stdout.contains("meta-data: country 246"), "\(rebuilt.stdout.prefix(800))")
        #expect(
            rebuilt.stdout.contains("(main)") && rebuilt.stdout.contains("SEGMENT"), "\(rebuilt.stdout.prefix(800))")
        #expect(
            rebuilt.stdout.contains("received: ") && !rebuilt.stdout.contains("(gaps 1"),
            "\(rebuilt.stdout.suffix(400))")

        // POSITION at 10 Hz, on the main path (index 8 or above) once fixes arrive. The vehicle's
        // own position is PositionIndex 0; alternatives (1…3, while the matcher is unsure between
        // parallel roads) ride in the same cycle and do not count towards the rate.
        let all = frames.filter { $0.type == "position" && $0.fields["PositionIndex"] == "0" }
        let firstOnPath = try #require(
            all.firstIndex { ($0.fields["PathIndex"].flatMap(Int.init) ?? 0) >= 8 },
            "no POSITION on a path: \(daemonLog)")
        // The first fix on the map is a pause in the stream on every backend: the daemon builds
        // the whole first horizon before its next tick, in a debug build inside a virtual kernel
        // (measured under UML at load 2: a 0.43–0.52 s gap just before the first POSITION on a
        // path, 0.1 s on the host; seconds under QEMU's TCG or a loaded CI machine), and the fixes
        // queued meanwhile leave its next ticks "processing behind". The rate is that of the
        // steady stream: from 1 s after the first POSITION on a path, when it has caught up.
        let settled = all[firstOnPath].time + 1
        let positions = Array(all.drop { $0.time < settled })
        try #require(positions.count >= 2)
        let duration = positions.last!.time - positions.first!.time
        let rate = Double(positions.count - 1) / duration
        // Each gap between consecutive POSITIONs, with when it began; smallest first.
        let gaps = zip(positions.dropFirst(), positions)
            .map { (after: $1.time - settled, gap: $0.time - $1.time) }.sorted { $0.gap < $1.gap }
        let largestGaps = gaps.suffix(5).reversed().map { String(format: "%.2f s at %.2f s", $0.gap, $0.after) }
            .joined(separator: ", ")
        #expect(
            rate > 9 && rate < 11,
            "POSITION rate \(rate) Hz over \(duration) s; the largest gaps (s after the start): \(largestGaps)")
        let median = gaps[gaps.count / 2].gap
        #expect(abs(median - 0.1) < 0.02, "median POSITION gap \(median) s")
        let onPath = all[firstOnPath...].drop { $0.time < settled }
        #expect(onPath.count >= 100, "only \(onPath.count) POSITIONs after the first fix")
        #expect(onPath.allSatisfy { ($0.fields["PathIndex"].flatMap(Int.init) ?? 0) >= 8 })
        #expect(onPath.allSatisfy { $0.fields["Offset"]?.hasSuffix("(invalid)") == false })

        // META-DATA with Finland's code, SEGMENTs and STUBs of the horizon.
        let metaData = frames.filter { $0.type == "metaData" }
        #expect(metaData.count >= 4 && metaData.allSatisfy { $0.fields["CountryCode"] == "246" })
        let segments = frames.filter { $0.type == "segment" }, stubs = frames.filter { $0.type == "stub" }
        #expect(segments.count >= 20 && stubs.count >= 5, "\(segments.count) segments, \(stubs.count) stubs")

        // The metrics file agrees with what was recorded.
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        func value(_ sample: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap {
                Double($0.split(separator: " ").last!)
            }
        }
        #expect(
            value("adasis_frames_sent_total{type=\"position\"}")
                == Double(frames.filter { $0.type == "position" }.count))
        #expect(value("adasis_frames_sent_total{type=\"segment\"}") == Double(segments.count))
        #expect(value("adasis_frames_sent_total{type=\"stub\"}") == Double(stubs.count))
        #expect(value("adasis_frames_sent_total{type=\"meta_data\"}") == Double(metaData.count))
        #expect((value("adasis_gnss_fixes_total") ?? 0) >= 10)
        #expect(value("adasis_match_state{state=\"on_road\"}") == 1)
        #expect((value("adasis_gnss_fix_age_seconds") ?? .infinity) < 3)
        #expect(value("adasis_can_up") == 1)
        #expect(value("adasis_can_down_episodes_total") == 0)
        #expect(value("adasis_gnss_reconnects_total") == 0)
        #expect(!text.contains("adasis_frames_dropped_total"), "frames dropped:\n\(text)")
        let metricsDirectory = (metrics as NSString).deletingLastPathComponent
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: metricsDirectory).allSatisfy {
                !$0.contains(".partial-")
            })
    }

    @Test(
        "adasis run sends the subscribed road objects on vcan0 and nothing of the other types",
        .enabled(if: runsEndToEnd, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"))
    func roadObjects() throws {
        let (directory, map, port, _, config) = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every profile, but only traffic signals of the road objects: the drive's tunnels
        // (building passages on side paths, PROFILE SHORT 19/20 in the golden "all" log) stay off.
        try
            (gpsdConfiguration(map: map, port: port, preset: "all") + """
                [horizon]
                objects = "traffic_signals"
                """).write(toFile: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("can.log").path
        let errors = directory.appendingPathComponent("adasis.err").path
        let script =
            scriptFunctions + """
                start_gpsfake \(port) '\(directory.path)' /dev/null
                sleep 1
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                wait_for 150 "a POSITION on a path" on_path '\(log)' && sleep 15
                stop_daemon
                sleep 0.3
                kill $dumper
                stop_gpsfake
                echo "adasis-exit=$status"
                """
        let result = try runInVcanKernel(script)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("adasis-exit=0"), "adasis did not exit 0: \(result.stdout)\n\(daemonLog)")
        let decoded = try runAdasis(["decode", log])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr.prefix(500))")
        let profiles = decoded.stdout.split(separator: "\n").compactMap(DecodedFrame.init).filter {
            $0.type == "profileShort"
        }
        // "17(traffic signals)": the decoder's name, cut at its space by DecodedFrame.
        let types = Set(profiles.compactMap { $0.fields["ProfileType"] })
        #expect(types.contains { $0.hasPrefix("17(") }, "\(types)")
        #expect(types.contains { $0.hasPrefix("1(") }, "\(types)")
        #expect(
            !types.contains {
                $0.hasPrefix("16(") || $0.hasPrefix("18(") || $0.hasPrefix("19(") || $0.hasPrefix("20(")
            },
            "\(types)")
    }

    // A full TX queue is not producible on vcan; HorizonDaemonTests prove it on a real CANSocket
    // with SocketCAN's fault seam ("a full TX queue drops exactly the failed frames…").
    @Test(
        "bus-off (error frame) and restart: each logged once per episode and counted",
        .enabled(if: runsEndToEnd, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"))
    func busOffAndRestart() throws {
        let (directory, map, port, metrics, config) = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        try gpsdConfiguration(map: map, port: port, metrics: metrics).write(
            toFile: config, atomically: true, encoding: .utf8)
        let errors = directory.appendingPathComponent("adasis.err").path
        let log = directory.appendingPathComponent("can.log").path
        let result = try runInVcanKernel(
            scriptFunctions + """
                start_gpsfake \(port) '\(directory.path)' /dev/null
                sleep 1
                candump -L vcan0 > '\(log)' &
                dumper=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                wait_for 150 "a POSITION on a path" on_path '\(log)'
                cansend vcan0 20000040#0000000000000000   # controller problem: bus-off
                wait_for 60 "the bus-off log line" grep -q 'is bus-off' '\(errors)'
                cansend vcan0 20000040#0000000000000000   # still bus-off: same episode
                sleep 1
                cansend vcan0 20000100#0000000000000000   # restarted
                wait_for 60 "the restart log line" grep -q 'restarted: starting a fresh horizon' '\(errors)'
                sleep 3
                stop_daemon
                kill $dumper
                stop_gpsfake
                echo "adasis-exit=$status"
                """)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("adasis-exit=0"), "\(result.stdout)\n\(daemonLog)")
        let lines = daemonLog.split(separator: "\n")
        #expect(lines.filter { $0.contains("is bus-off") }.count == 1, "\(daemonLog)")
        #expect(lines.filter { $0.contains("restarted: starting a fresh horizon") }.count == 1, "\(daemonLog)")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("adasis_can_bus_off_total 1\n"), "\(text)")
        #expect(text.contains("adasis_can_tx_queue_full_episodes_total 0\n"), "\(text)")
        #expect(text.contains("adasis_new_main_paths_total"), "\(text)")
    }

    @Test(
        "survives vcan0 going down and up (fresh horizon) and reloads on SIGHUP, refusing a bad file",
        .enabled(if: runsEndToEnd, "gpsfake is not installed (apt-get install gpsd gpsd-clients)"))
    func faultsAndReload() throws {
        let (directory, map, port, metrics, config) = try Self.prepare()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = gpsdConfiguration(map: map, port: port, metrics: metrics)
        try base.write(toFile: config, atomically: true, encoding: .utf8)
        try (base + "[provider]\nposition_rate_hz = 5\n").write(
            toFile: config + ".slow", atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("can.log").path
        let errors = directory.appendingPathComponent("adasis.err").path
        let script =
            scriptFunctions + """
                start_gpsfake \(port) '\(directory.path)' /dev/null
                sleep 1
                # candump exits when the interface goes down: restart it until told to stop.
                (while [ ! -e '\(directory.path)/stop' ]; do candump -L vcan0 >> '\(log)' 2>/dev/null; sleep 0.1; done) &
                dumper=$!
                .build/debug/adasis run --config '\(config)' 2> '\(errors)' &
                daemon=$!
                wait_for 150 "a POSITION on a path" on_path '\(log)' && sleep 2
                ip link set vcan0 down
                wait_for 60 "the interface-lost log line" grep -q 'CAN interface vcan0 lost' '\(errors)'
                sleep 2.5; ip link set vcan0 up
                wait_for 60 "the interface-up log line" grep -q 'CAN interface vcan0 is up again' '\(errors)'
                sleep 3
                echo 'typo_key = 1' >> '\(config)'; kill -HUP $daemon
                wait_for 60 "the refused reload" grep -q 'reload refused' '\(errors)'
                cp '\(config).slow' '\(config)'; kill -HUP $daemon
                wait_for 60 "the applied reload" grep -q 'reloaded: new pipeline' '\(errors)'
                sleep 5
                stop_daemon
                touch '\(directory.path)/stop'
                kill $(pgrep -P $dumper) 2>/dev/null
                wait $dumper
                stop_gpsfake
                echo "adasis-exit=$status"
                echo "backend=$VCAN_RUN_BACKEND_USED"
                """
        let result = try runInVcanKernel(script)
        let daemonLog = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "<no log>"
        try #require(result.status == 0, "vcan-run failed: \(result.stderr)\n\(result.stdout)\n\(daemonLog)")
        #expect(result.stdout.contains("adasis-exit=0"), "\(result.stdout)\n\(daemonLog)")
        // Each fault is logged once per episode.
        let lines = daemonLog.split(separator: "\n")
        #expect(lines.filter { $0.contains("CAN interface vcan0 lost") }.count == 1, "\(daemonLog)")
        #expect(lines.filter { $0.contains("CAN interface vcan0 is up again") }.count == 1, "\(daemonLog)")
        #expect(lines.filter { $0.contains("not usable") }.isEmpty, "\(daemonLog)")
        #expect(
            daemonLog.contains("reload refused, keeping the running configuration: \(config):")
                && daemonLog.contains("typo_key: unknown key"))
        #expect(daemonLog.contains("reloaded: new pipeline"))

        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        for sample in [
            "adasis_can_down_episodes_total 1", "adasis_config_reloads_total{result=\"applied\"} 1",
            "adasis_config_reloads_total{result=\"rejected\"} 1", "adasis_can_up 1",
        ] {
            #expect(text.contains(sample + "\n"), "missing \(sample) in\n\(text)")
        }
        #expect(text.contains("reason=\"interface_down\""), "frames dropped while down are counted")

        // After the interface came back: a fresh horizon, on a new main path index; after the
        // reload POSITION goes at the new 5 Hz.
        let decoded = try runAdasis(["decode", log])
        #expect(decoded.stderr.isEmpty)
        let positions = decoded.stdout.split(separator: "\n").compactMap(DecodedFrame.init).filter {
            $0.type == "position" && $0.fields["PositionIndex"] == "0"
        }
        let gaps = zip(positions.dropFirst(), positions).map { $0.time - $1.time }
        // The outage is the longest gap once the daemon is on a path (under software emulation
        // the first fix itself can pause the stream for longer, before the first such POSITION).
        let firstOnPath = try #require(
            positions.firstIndex { ($0.fields["PathIndex"].flatMap(Int.init) ?? 0) >= 8 }, "\(daemonLog)")
        let outage = try #require(gaps.indices.dropFirst(firstOnPath).max { gaps[$0] < gaps[$1] })
        #expect(gaps[outage] > 2, "no gap while vcan0 was down")
        let before = positions[...outage].compactMap { $0.fields["PathIndex"].flatMap(Int.init) }.filter { $0 >= 8 }
        let after = positions[(outage + 1)...].compactMap { $0.fields["PathIndex"].flatMap(Int.init) }.filter {
            $0 >= 8
        }
        try #require(!before.isEmpty && !after.isEmpty, "\(daemonLog)")
        #expect(before.last != after.first, "the horizon restarted on a new path index")
        // The median gap, not the mean rate: a kernel under software emulation on a loaded host
        // stalls now and then (measured: 2.8 Hz mean at load 23), but the cadence stays 0.2 s.
        let tail = Array(positions.suffix(15))
        let tailGaps = zip(tail.dropFirst(), tail).map { $0.time - $1.time }.sorted()
        let median = tailGaps[tailGaps.count / 2]
        #expect(abs(median - 0.2) < 0.04, "median POSITION gap after the reload: \(median) s (5 Hz is 0.2 s)")
    }

    @Test("a bad configuration file is reported as FILE:LINE: KEY: PROBLEM with exit status 78 (EX_CONFIG)")
    func configurationErrors() throws {
        try requireBuiltAdasis()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.toml").path
        try "[map]\npath = \"x.map\"\n[can]\ninterface = \"vcan0\"\n[horizon]\nmax_level = 56\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let outOfRange = try runAdasis(["run", "--config", bad])
        #expect(outOfRange.status == 78)
        #expect(outOfRange.stderr.contains("bad.toml:6: horizon.max_level: 56 is outside 0…55"), "\(outOfRange.stderr)")

        try "[map]\npath = \"\(directory.path)/missing.map\"\n[can]\ninterface = \"vcan0\"\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let missingMap = try runAdasis(["run", "--config", bad])
        #expect(missingMap.status == 78)
        #expect(
            missingMap.stderr.contains("bad.toml: map.path:") && missingMap.stderr.contains("missing.map"),
            "\(missingMap.stderr)")

        let absent = try runAdasis(["run", "--config", directory.path + "/absent.toml"])
        #expect(absent.status == 78)
        #expect(absent.stderr.contains("absent.toml: cannot read the file"), "\(absent.stderr)")
    }
}
