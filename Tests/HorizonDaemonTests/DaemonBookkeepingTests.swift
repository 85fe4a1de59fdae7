import ADASISProvider
import ADASISv2
import DaemonConfiguration
import Foundation
import Horizon
import RoadMap
import Testing
import TestSupport
@testable import HorizonDaemon

/// A map's metadata for META-DATA tests.
private func mapMetadata(countries: [String], timestamp: Int64?) -> MapMetadata {
    MapMetadata(
        sourceFile: "x.osm.pbf", sourceTimestamp: timestamp, countries: countries,
        boundingBox: [60, 24, 61, 25], importReport: ImportReport())
}

private func configuration(_ extra: String) throws -> DaemonConfiguration {
    try DaemonConfiguration(toml: "[map]\npath = \"m.map\"\n[can]\ninterface = \"vcan0\"\n" + extra, source: "t.toml")
}

@Suite("adasis run: configuration → pipeline settings")
struct PipelineSettingsTests {
    @Test("the defaults give the provider's and horizon engine's own defaults, with META-DATA from the map")
    func defaults() throws {
        let map = mapMetadata(countries: ["FI"], timestamp: 1_561_939_200)  // 2019-07-01: Q3
        let settings = try PipelineSettings(try configuration(""), map: map, file: "t.toml")
        var expected = ProviderConfiguration()
        expected.metaData = MetaDataMessage(
            countryCode: 246, drivingSide: .right, speedUnits: .kilometresPerHour,
            mapVersionYear: 19, mapVersionQuarter: 2)
        expected.digitisedArea = map.boundingBox.count == 4 ? map.boundingBox : nil
        expected.places = PlaceCodes(map: map)
        #expect(settings.provider == expected)
        var horizon = HorizonConfiguration()
        horizon.safetyLocationRules = try SafetyLocationRules.shippedDefault()
        horizon.places = PlaceCodes(map: map)
        #expect(horizon.places.countryCodes == ["FI"])
        #expect(settings.horizon == horizon)
        #expect(settings.matching.fusesDeadReckoning, "dead reckoning fused by default")
        #expect(!settings.matching.estimatesReceiverBias, "the receiver's bias not estimated by default")
        #expect(!settings.matching.estimatesSpeedLatency, "the speeds' latency not estimated by default")
    }

    @Test("speed_latency reaches the matcher, and is refused without the dead reckoning it is learnt from")
    func speedLatencyKey() throws {
        let map = mapMetadata(countries: ["FI"], timestamp: nil)
        let settings = try PipelineSettings(
            try configuration("[gnss]\nspeed_latency = true\n"), map: map, file: "t.toml")
        #expect(settings.matching.estimatesSpeedLatency)
        #expect(settings.matching.fusesDeadReckoning)
        do {
            _ = try configuration("[gnss]\nspeed_latency = true\ndead_reckoning = false\n")
            Issue.record("speed_latency without dead reckoning was accepted")
        } catch let error as ConfigurationError {
            #expect(error.key == "gnss.speed_latency")
            #expect("\(error)".contains("t.toml") && "\(error)".contains("dead_reckoning = true"), "\(error)")
        }
        let known = try PipelineSettings(
            try configuration("[gnss]\nknown_speed_latency_s = 0.35\ndead_reckoning = false\n"), map: map,
            file: "t.toml")
        #expect(known.matching.knownSpeedLatency == 0.35 && !known.matching.estimatesSpeedLatency)
        for (extra, problem) in [
            ("known_speed_latency_s = 0.3\nspeed_latency = true\n", "give either"),
            ("known_speed_latency_s = 3\n", "outside"),
        ] {
            do {
                _ = try configuration("[gnss]\n" + extra)
                Issue.record("accepted: \(extra)")
            } catch let error as ConfigurationError {
                #expect(error.key == "gnss.known_speed_latency_s" && "\(error)".contains(problem), "\(error)")
            }
        }
    }

    @Test(
        "every key reaches its setting: preset, overrides, identifiers, byte order, rates, lengths, budget, staleness, dead reckoning, receiver bias"
    )
    func everyKey() throws {
        let toml = """
            [gnss]
            stale_after_s = 3.5
            dead_reckoning = false
            receiver_bias = true
            [can]
            byte_order = "little"
            extended_identifiers = true
            [can.identifiers]
            position = 0x18FF0001
            stub = 0x300
            [messages]
            preset = "all"
            profile_long = false
            stub = false
            [messages.profiles]
            slope_step = true
            curvature = false
            link_identifier = false
            [horizon]
            main_length_m = 3000
            level1_length_m = 700
            level2_length_m = 400
            max_level = 1
            trailing_m = 150
            side_path_trailing_m = 60
            objects = "tunnel, fixed_speed_camera"
            [provider]
            position_rate_hz = 5
            metadata_interval_s = 0.5
            retransmission_interval_s = 3
            frames_per_100ms = 12
            """
        let settings = try PipelineSettings(
            try configuration(toml), map: mapMetadata(countries: ["GB"], timestamp: nil),
            file: "t.toml")
        let provider = settings.provider
        #expect(provider.messages.messageTypes == [.position, .segment, .metaData, .profileShort])
        #expect(
            provider.messages.profileShortTypes == [
                .slopeLinear, .slopeStep, .safetyCamera, .trafficSignals, .roadObject, .roadObjectZoneStart,
                .trafficSpeed,
            ])
        #expect(provider.roadObjectTypes == [.tunnel, .fixedSpeedCamera])
        #expect(provider.messages.profileLongTypes == [.longitude, .latitude])
        #expect(provider.identifiers.identifier(for: .position) == (try .init(0x18FF_0001, isExtended: true)))
        #expect(provider.identifiers.identifier(for: .stub) == (try .init(0x300, isExtended: true)))
        #expect(provider.identifiers.identifier(for: .segment) == (try .init(0x250, isExtended: true)))
        #expect(provider.byteOrder == .littleEndian)
        #expect(provider.sendRadius == [3000, 700])
        #expect(provider.positionInterval == 0.2)
        #expect(provider.metaDataInterval == 0.5)
        #expect(provider.metaDataStartupInterval == 0.5)
        #expect(provider.retransmissionInterval == 3)
        #expect(provider.framesPerTick == 12)
        #expect(provider.trailingLength == 150)
        #expect(provider.positionStaleAfter == 3.5)
        #expect(!settings.matching.fusesDeadReckoning)
        #expect(settings.matching.estimatesReceiverBias)
        #expect(provider.metaData == MetaDataMessage(countryCode: 826, drivingSide: .left, speedUnits: .milesPerHour))
        var horizon = HorizonConfiguration(
            lookAhead: [3000, 700], maximumLevel: 1, trailingLength: 150, roadObjectTypes: [.tunnel, .fixedSpeedCamera])
        horizon.sidePathTrailingLength = 60
        horizon.safetyLocationRules = try SafetyLocationRules.shippedDefault()
        horizon.places = PlaceCodes(countryCodes: ["GB"])
        #expect(settings.horizon == horizon)
    }

    @Test(
        "any level: max_level 4 looks 500 m at levels 3 and 4; one_link_level sends one level more; zero-probability paths; u_turns, also off side paths; unsure_fork"
    )
    func deepLevels() throws {
        let toml =
            "[horizon]\nmax_level = 4\none_link_level = true\nzero_probability_paths = true\nu_turns = true\nu_turns_off_side_paths = true\nlevel2_length_m = 400\nunsure_fork = false\n"
        let settings = try PipelineSettings(
            try configuration(toml), map: mapMetadata(countries: [], timestamp: nil), file: "t.toml")
        #expect(settings.horizon.maximumLevel == 4)
        #expect(settings.horizon.lookAhead == [2000, 500, 400, 400, 400])
        #expect(settings.horizon.addsOneLinkLevel && settings.horizon.keepsZeroProbabilityPaths)
        #expect(settings.horizon.branchModel.offersUTurns && settings.horizon.uTurnsOffSidePaths)
        #expect(settings.horizon.unsureFork == nil)
        #expect(settings.provider.sendRadius == [2000, 500, 400, 400, 400, 400])
        let plain = try PipelineSettings(
            try configuration("[horizon]\nmax_level = 3\n"), map: mapMetadata(countries: [], timestamp: nil),
            file: "t.toml")
        #expect(plain.provider.sendRadius == [2000, 500, 500, 500])
        #expect(!plain.horizon.addsOneLinkLevel && !plain.horizon.keepsZeroProbabilityPaths)
        #expect(!plain.horizon.branchModel.offersUTurns && !plain.horizon.uTurnsOffSidePaths)
        #expect(plain.horizon.unsureFork == UnsureFork())
        #expect(plain.horizon.branchModel.deadEndFactor == 0.02 && plain.horizon.branchModel.deadEndReach == 120)
        let open = try PipelineSettings(
            try configuration("[horizon]\ncul_de_sac_factor = 1\ncul_de_sac_m = 80\n"),
            map: mapMetadata(countries: [], timestamp: nil), file: "t.toml")
        #expect(open.horizon.branchModel.deadEndFactor == 1 && open.horizon.branchModel.deadEndReach == 80)
        #expect(plain.horizon.mainPathGrowthPerUpdate == 300)
        let atOnce = try PipelineSettings(
            try configuration("[horizon]\nmain_path_growth_m = 0\n"),
            map: mapMetadata(countries: [], timestamp: nil), file: "t.toml")
        #expect(atOnce.horizon.mainPathGrowthPerUpdate == .infinity)
        #expect(throws: ConfigurationError.self) { try configuration("[horizon]\nmain_path_growth_m = -1\n") }
        #expect(throws: ConfigurationError.self) { try configuration("[horizon]\ncul_de_sac_factor = 2\n") }
        #expect(throws: ConfigurationError.self) { try configuration("[horizon]\nmax_level = 56\n") }
        #expect(throws: ConfigurationError.self) { try configuration("[horizon]\none_link_level = 1\n") }
    }

    @Test("a multiplexed identifier carries every type; a level of length 0 switches it and deeper levels off")
    func multiplexedAndZeroLevel() throws {
        let toml = "[can]\nmultiplexed_identifier = 0x360\n[horizon]\nlevel1_length_m = 0\n"
        let settings = try PipelineSettings(
            try configuration(toml), map: mapMetadata(countries: [], timestamp: nil), file: "t.toml")
        #expect(settings.provider.identifiers == (try CANIdentifierAssignment(multiplexed: 0x360)))
        #expect(settings.provider.sendRadius == [2000])
        #expect(settings.horizon.maximumLevel == 0)
        #expect(settings.provider.metaData == MetaDataMessage())
    }

    @Test("two types on one identifier is a configuration error naming the key and both types")
    func duplicateIdentifiers() throws {
        let toml = "[can.identifiers]\nstub = 0x250\n"
        #expect {
            try PipelineSettings(
                try configuration(toml), map: mapMetadata(countries: ["FI"], timestamp: nil), file: "t.toml")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("t.toml: can.identifiers: CAN identifier 0x250 is assigned to")
                && text.contains("segment")
                && text.contains("stub")
        }
    }
}

@Suite("adasis run: Prometheus text")
struct PrometheusTextTests {
    @Test("counters and gauges with labels, escaping, integers, fractions, NaN and infinities")
    func exactText() {
        var document = PrometheusText()
        document.append(
            "a_total", .counter, help: "Things\\counted.\nTwo lines.",
            samples: [.init([("type", "po\"s\\n\n")], 3), .init([("type", "x"), ("reason", "y")], 0)])
        document.append("b", .gauge, help: "A gauge.", value: 0.25)
        document.append("c", .gauge, help: "Not a number.", samples: [.init([], .nan), .init([("k", "v")], .infinity)])
        document.append("empty", .counter, help: "No samples: left out.", samples: [])
        #expect(
            document.text == """
                # HELP a_total Things\\\\counted.\\nTwo lines.
                # TYPE a_total counter
                a_total{type="po\\"s\\\\n\\n"} 3
                a_total{type="x",reason="y"} 0
                # HELP b A gauge.
                # TYPE b gauge
                b 0.25
                # HELP c Not a number.
                # TYPE c gauge
                c NaN
                c{k="v"} +Inf

                """)
    }

    @Test("the daemon's snapshot names frames by type, drops by type and reason, and one-hot match state")
    func snapshot() {
        var metrics = DaemonMetrics()
        metrics.framesSent = ["segment": 7, "position": 100]
        metrics.framesDropped = [
            .init(type: "stub", reason: .transmitQueueFull): 2, .init(type: "position", reason: .interfaceDown): 5,
        ]
        metrics.matchState = "on_road"
        metrics.gnssAge = 0.5
        metrics.fixLatencySamples = 3
        metrics.fixLatencyMedian = 0.0005
        metrics.fixLatency99 = 0.002
        metrics.receiverBiasEast = 1.5
        metrics.receiverBiasNorth = -0.25
        metrics.speedLatency = 0.62
        metrics.speedLatencyApplied = 0.5
        let text = metrics.prometheusText
        for line in [
            "adasis_frames_sent_total{type=\"position\"} 100\nadasis_frames_sent_total{type=\"segment\"} 7\n",
            "adasis_frames_dropped_total{type=\"position\",reason=\"interface_down\"} 5\nadasis_frames_dropped_total{type=\"stub\",reason=\"tx_queue_full\"} 2\n",
            "adasis_match_state{state=\"unknown\"} 0\nadasis_match_state{state=\"on_road\"} 1\nadasis_match_state{state=\"off_road\"} 0\n",
            "adasis_gnss_fix_age_seconds 0.5\n", "adasis_fix_processing_seconds{quantile=\"0.5\"} 0.0005\n",
            "adasis_fix_processing_seconds{quantile=\"0.99\"} 0.002\n", "adasis_can_bus_off_total 0\n",
            "adasis_gnss_receiver_bias_metres{axis=\"east\"} 1.5\nadasis_gnss_receiver_bias_metres{axis=\"north\"} -0.25\n",
            "adasis_gnss_speed_latency_seconds{kind=\"estimate\"} 0.62\nadasis_gnss_speed_latency_seconds{kind=\"applied\"} 0.5\n",
        ] {
            #expect(text.contains(line), "missing \(line)")
        }
        #expect(DaemonMetrics().prometheusText.contains("adasis_gnss_fix_age_seconds NaN\n"))
        #expect(!DaemonMetrics().prometheusText.contains("adasis_fix_processing_seconds{"))
        #expect(!DaemonMetrics().prometheusText.contains("adasis_gnss_receiver_bias_metres{"))
        #expect(!DaemonMetrics().prometheusText.contains("adasis_gnss_speed_latency_seconds{"))
    }
}

@Suite("adasis run: time line, latency, fault episodes")
struct RunBookkeepingTests {
    @Test("the first fix anchors the time line; less delayed fixes move it forward; a jump re-anchors it")
    func timeline() {
        var line = ReceiverTimeline(resynchroniseAfter: 2)
        #expect(line.time(atMonotonic: 10) == 10)
        #expect(line.observe(fixTime: 1000, receivedAt: 10.5) == .anchored)
        #expect(line.time(atMonotonic: 11) == 1000.5)
        #expect(line.observe(fixTime: 1001, receivedAt: 11.8) == .none)  // more delay: unchanged
        #expect(line.time(atMonotonic: 12) == 1001.5)
        #expect(line.observe(fixTime: 1002, receivedAt: 12.2) == .none)  // less delay: forward
        #expect(abs(line.time(atMonotonic: 12.2) - 1002) < 1e-9)
        guard case .resynchronised(let jump) = line.observe(fixTime: 900, receivedAt: 13) else {
            Issue.record("a 100 s jump back must re-anchor")
            return
        }
        #expect(abs(jump + 102.8) < 1e-9)
        #expect(abs(line.time(atMonotonic: 14) - 901) < 1e-9)
        #expect(line.observe(fixTime: 901 + 2.5, receivedAt: 14) == .resynchronised(jump: 2.5))
    }

    @Test("a fix held up on its way is delayed, not a clock jump; lateness that lasts re-anchors")
    func delayedFixes() {
        var line = ReceiverTimeline(resynchroniseAfter: 2)
        #expect(line.observe(fixTime: 1000, receivedAt: 10) == .anchored)
        #expect(line.observe(fixTime: 1001, receivedAt: 11) == .none)
        // A 2.5 s stall: fixes 1002–1004 come together, 2.5, 1.5 and 0.5 s late.
        #expect(line.observe(fixTime: 1002, receivedAt: 14.5) == .delayed(seconds: 2.5))
        #expect(line.observe(fixTime: 1003, receivedAt: 14.5) == .none)
        #expect(line.observe(fixTime: 1004, receivedAt: 14.5) == .none)
        #expect(line.time(atMonotonic: 15) == 1005, "the time line stays")
        // A stall of a 10 Hz receiver: 25 fixes in one burst, the first 2.5 s late.
        func lateness(_ adjustment: ReceiverTimeline.Adjustment) -> Double? {
            if case .delayed(let seconds) = adjustment { return seconds }
            return nil
        }
        for k in 0..<25 {
            let adjustment = line.observe(fixTime: 1005 + 0.1 * Double(k), receivedAt: 17.5)
            if k < 5 {
                #expect(lateness(adjustment).map { abs($0 - (2.5 - 0.1 * Double(k))) < 1e-9 } == true, "fix \(k)")
            } else {
                #expect(adjustment == .none, "fix \(k)")
            }
        }
        #expect(abs(line.time(atMonotonic: 15) - 1005) < 1e-9)
        // The receiver's clock went back 5 s (not behind the last fix): late at every fix, and
        // re-anchored once the lateness has lasted 2 s.
        #expect(line.observe(fixTime: 1008, receivedAt: 23) == .delayed(seconds: 5))
        #expect(line.observe(fixTime: 1009, receivedAt: 24) == .delayed(seconds: 5))
        #expect(line.observe(fixTime: 1010, receivedAt: 25) == .resynchronised(jump: -5))
        #expect(line.observe(fixTime: 1011, receivedAt: 26) == .none)
        // Time going back is a reset at once, and a fix ahead of the time line a jump at once.
        #expect(line.observe(fixTime: 900, receivedAt: 27) == .resynchronised(jump: -112))
        #expect(line.observe(fixTime: 904, receivedAt: 28) == .resynchronised(jump: 3))
    }

    @Test("quantiles by nearest rank over the interval's samples")
    func latency() {
        var window = LatencyWindow(capacity: 1000)
        #expect(window.quantile(0.5) == nil)
        for sample in 1...100 { window.record(Double(sample)) }
        #expect(window.quantile(0.5) == 50)
        #expect(window.quantile(0.99) == 99)
        #expect(window.quantile(1) == 100)
        window.reset()
        window.record(7)
        #expect(window.quantile(0.99) == 7)
    }

    @Test("a fault is reported once when it starts and once when it ends, and counted per episode")
    func episodes() {
        var faults = BusFaultEpisodes()
        var reported: [Bool] = []
        reported.append(faults.begin(.transmitQueueFull))
        reported.append(faults.begin(.transmitQueueFull))
        #expect(faults.isActive(.transmitQueueFull))
        reported.append(faults.end(.transmitQueueFull))
        reported.append(faults.end(.transmitQueueFull))
        reported.append(faults.begin(.transmitQueueFull))
        #expect(reported == [true, false, true, false, true])
        #expect(faults.count(.transmitQueueFull) == 2)
        #expect(faults.count(.busOff) == 0)
    }
}

@Suite("adasis run: sd_notify")
struct SystemdNotifierTests {
    /// A bound Unix datagram socket at `address` (a path, or `@name` for the abstract namespace).
    private func listen(_ address: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(2 + bytes.count + (bytes.first == 0 ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0, "bind \(address): errno \(errno)")
        return fd
    }

    private func receive(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 2000) == 1 else { return "<nothing>" }
        let count = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    }

    @Test("one datagram per message to a path socket and to an abstract '@' socket")
    func datagrams() throws {
        let path = ScratchDirectory.path("notify.sock")
        unlink(path)
        let pathSocket = try listen(path)
        defer { close(pathSocket); unlink(path) }
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": path], processID: getpid()))
        try notifier.notify("READY=1")
        try notifier.notify("WATCHDOG=1")
        #expect(receive(pathSocket) == "READY=1")
        #expect(receive(pathSocket) == "WATCHDOG=1")

        let abstract = "@adasis-notify-test-\(getpid())"
        let abstractSocket = try listen(abstract)
        defer { close(abstractSocket) }
        try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": abstract], processID: getpid())).notify(
            "STOPPING=1")
        #expect(receive(abstractSocket) == "STOPPING=1")
    }

    @Test("no NOTIFY_SOCKET: no notifier; the watchdog interval is half of WATCHDOG_USEC, for our pid only")
    func environment() throws {
        #expect(SystemdNotifier(environment: [:], processID: 1) == nil)
        let both = ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "5000000"]
        #expect(SystemdNotifier(environment: both, processID: 7)?.watchdogInterval == 2.5)
        var ours = both, theirs = both
        ours["WATCHDOG_PID"] = "7"
        theirs["WATCHDOG_PID"] = "8"
        #expect(SystemdNotifier(environment: ours, processID: 7)?.watchdogInterval == 2.5)
        #expect(SystemdNotifier(environment: theirs, processID: 7)?.watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x"], processID: 7)?.watchdogInterval == nil)
    }

    @Test("a socket nobody listens on is a typed error naming it")
    func missingSocket() throws {
        let notifier = try #require(
            SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"], processID: 1))
        #expect { try notifier.notify("READY=1") } throws: { "\($0)".contains("/nonexistent/notify") }
    }
}
