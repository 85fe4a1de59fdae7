import Foundation
import DaemonConfiguration
import GNSSSources
import Testing
@testable import HorizonDaemon

/// The core's reactions to GNSS, time and reloads, on simulated time.
@Suite("daemon core")
struct DaemonCoreTests {
    @Test("GNSS going stale is logged once; the next fix is logged once; POSITION stops claiming a position")
    func gnssStale() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("[gnss]\nstale_after_s = 2\n"),
            opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 12) { second in second < 4 || second >= 9 }
        #expect(loop.logs(containing: "GNSS lost").count == 1)
        #expect(loop.logs(containing: "GNSS fixes again").count == 1)
        #expect(loop.metrics(at: 12).fixesProcessed == 7)
        #expect(loop.logs(containing: "first GNSS fix").count == 1)
    }

    @Test("a stall with newer fixes waiting is the loop behind, not GNSS lost: logged and counted once, then caught up")
    func processingBehind() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("[gnss]\nstale_after_s = 2\n"),
            opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3)
        // The loop stalled from 3 s to 6 s: the fixes of 4 s and 5 s arrived and wait, unprocessed.
        let waiting = FixInbox.SourceState(connected: true, newestWaitingArrival: 5.1)
        loop.perform(loop.core.wake(at: 6, gnss: waiting))
        loop.perform(loop.core.wake(at: 6.2, gnss: waiting))
        #expect(loop.logs(containing: "processing behind").count == 1)
        #expect(loop.logs(containing: "GNSS lost").isEmpty)
        #expect(loop.core.snapshot(at: 6.2, gnss: waiting).processingBacklogs == 1)
        let text = loop.core.snapshot(at: 6.2, gnss: waiting).prometheusText
        #expect(text.contains("adasis_processing_backlogs_total 1"))
        // Worked through: the waiting fixes are processed at the next tick, which says so.
        for second in [4.0, 5.0, 6.0] { loop.inbox.append(.init(fix: streetFix(second), receivedAt: second + 0.1)) }
        loop.run(from: 6.3, to: 8)
        #expect(loop.logs(containing: "processing caught up").count == 1)
        #expect(loop.logs(containing: "GNSS lost").isEmpty)
        // A waiting fix that itself arrived longer ago than stale_after_s is no sign of a live receiver.
        let old = FixInbox.SourceState(connected: true, newestWaitingArrival: 8.5)
        loop.perform(loop.core.wake(at: 12, gnss: old))
        loop.perform(loop.core.wake(at: 12.2, gnss: old))
        #expect(loop.logs(containing: "GNSS lost").count == 1)
        #expect(loop.core.snapshot(at: 12.2, gnss: old).processingBacklogs == 1)
    }

    @Test("a receiver clock jump re-anchors the time line and starts a fresh pipeline, continuing the stream")
    func clockJump() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3)
        let pipeline = loop.core.pipeline
        var jumped = streetFix(3)
        jumped.time += 3600
        loop.inbox.append(.init(fix: jumped, receivedAt: 3.1))
        loop.run(from: 3, to: 4, fixes: { _ in false })
        #expect(loop.logs(containing: "receiver clock jumped by").count == 1)
        #expect(loop.core.pipeline !== pipeline)
        #expect(loop.metrics(at: 4).fixesProcessed == 4, "counts survive the new pipeline")
    }

    @Test("a fix held up 2.5 s on its way keeps the pipeline and is counted, logged once per stall")
    func delayedFix() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3)
        let pipeline = loop.core.pipeline
        // Fixes 3 and 4 are held up and arrive together at 5.6 and 5.7 (2.6 and 1.7 s late).
        loop.inbox.append(.init(fix: streetFix(3), receivedAt: 5.6))
        loop.inbox.append(.init(fix: streetFix(4), receivedAt: 5.7))
        loop.run(from: 5.6, to: 6, fixes: { _ in false })
        #expect(loop.core.pipeline === pipeline, "no fresh horizon")
        #expect(loop.logs(containing: "receiver clock jumped").isEmpty)
        #expect(loop.logs(containing: "s late (held up").count == 1)
        let metrics = loop.metrics(at: 6)
        #expect(metrics.gnssFixesDelayed == 1)
        #expect(metrics.gnssReceiverResets == 0)
        #expect(metrics.fixesProcessed == 5)
        #expect(metrics.prometheusText.contains("adasis_gnss_fixes_delayed_total 1"))
    }

    @Test("with [gnss] receiver_bias the matcher's correction is a gauge; a receiver on its road needs none")
    func receiverBiasGauge() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("[gnss]\nreceiver_bias = true\n"),
            opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 20)
        let metrics = loop.metrics(at: 20)
        let east = try #require(metrics.receiverBiasEast), north = try #require(metrics.receiverBiasNorth)
        #expect(hypot(east, north) < 0.5, "\(east), \(north)")
        #expect(metrics.prometheusText.contains("adasis_gnss_receiver_bias_metres{axis=\"east\"}"))
    }

    @Test(
        "with [gnss] speed_latency the estimate is a gauge: about 0 for the simulated receiver's speeds, none taken off"
    )
    func speedLatencyGauge() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("[gnss]\nspeed_latency = true\n"),
            opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 20)
        let metrics = loop.metrics(at: 20)
        let estimate = try #require(metrics.speedLatency), applied = try #require(metrics.speedLatencyApplied)
        #expect(abs(estimate) < 0.5 && applied == 0, "\(estimate), \(applied)")
        #expect(metrics.prometheusText.contains("adasis_gnss_speed_latency_seconds{kind=\"estimate\"}"))
    }

    @Test("a car driving on where the map has no road, 20 m beside the street, is off road, counted and logged once")
    func offTheMap() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 5)
        // From second 5 on, the car drifts north onto a road the map lacks, 20 m beside the street.
        for second in stride(from: 5.0, to: 15, by: 1) {
            var fix = streetFix(second)
            fix.latitude += min(20, (second - 4) * 5) / 111_320
            loop.inbox.append(.init(fix: fix, receivedAt: second + 0.1))
        }
        loop.run(from: 5, to: 15, fixes: { _ in false })
        let metrics = loop.metrics(at: 15)
        #expect(metrics.matchState == "off_road")
        // 20 m off from second 8; the fused positions (dead reckoning says straight on) follow the
        // drift once the fixes have run off one way for two fixes beyond its gate (stop 54).
        #expect(metrics.offMapFixes >= 4)
        #expect(metrics.gnssOutliers == 0)
        #expect(
            metrics.receiverBiasEast == nil && metrics.receiverBiasNorth == nil && metrics.speedLatency == nil,
            "no receiver bias or speed latency estimated by default"
        )
        #expect(metrics.prometheusText.contains("adasis_off_map_fixes_total \(metrics.offMapFixes)"))
        // The drift north with the course still east: the fused track started again at the fixes.
        #expect(metrics.deadReckoningRestarts >= 1)
        #expect(
            metrics.prometheusText.contains("adasis_dead_reckoning_restarts_total \(metrics.deadReckoningRestarts)"))
        #expect(loop.logs(containing: "off road: no road of the map").count == 1)
        // Back on the street: logged once.
        for second in stride(from: 15.0, to: 22, by: 1) {
            loop.inbox.append(.init(fix: streetFix(second), receivedAt: second + 0.1))
        }
        loop.run(from: 15, to: 22, fixes: { _ in false })
        #expect(loop.metrics(at: 22).matchState == "on_road")
        #expect(loop.logs(containing: "back on a road of the map").count == 1)
        #expect(loop.logs(containing: "off road: no road of the map").count == 1)
    }

    @Test("a fix far off the street (multipath) is coasted over and counted; the horizon goes on")
    func outlierFix() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 5)
        let pipeline = loop.core.pipeline
        // The fix of second 5, 80 m north of the street.
        var far = streetFix(5)
        far.latitude += 80 / 111_320
        loop.inbox.append(.init(fix: far, receivedAt: 5.1))
        loop.run(from: 5, to: 8, fixes: { $0 >= 6 })
        #expect(loop.core.pipeline === pipeline, "no fresh horizon")
        let metrics = loop.metrics(at: 8)
        #expect(metrics.gnssOutliers == 1)
        #expect(metrics.matchState == "on_road")
        #expect(metrics.fixesProcessed == 8)
        #expect(metrics.prometheusText.contains("adasis_gnss_outliers_total 1"))
    }

    @Test("a receiver reset (time back) starts a fresh horizon and is counted; skipped GNSS records reach the metrics")
    func receiverReset() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3)
        let pipeline = loop.core.pipeline
        var reset = streetFix(3)
        reset.time -= 600
        loop.inbox.append(.init(fix: reset, receivedAt: 3.1))
        loop.run(from: 3, to: 4, fixes: { _ in false })
        #expect(loop.core.pipeline !== pipeline)
        let metrics = loop.core.snapshot(
            at: 4, gnss: .init(connected: true, skipped: ["checksum mismatch": 7, "not an NMEA sentence": 2]))
        #expect(metrics.gnssReceiverResets == 1)
        #expect(metrics.fixesProcessed == 4, "the fix after the reset is used")
        let text = metrics.prometheusText
        #expect(text.contains("adasis_gnss_receiver_resets_total 1"))
        #expect(text.contains("adasis_gnss_records_skipped_total{reason=\"checksum mismatch\"} 7"))
        #expect(text.contains("adasis_gnss_records_skipped_total{reason=\"not an NMEA sentence\"} 2"))
    }

    @Test("a fix no newer than the last one used (superseded) is skipped and counted as late, beside the source's")
    func lateFix() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3)
        let pipeline = loop.core.pipeline
        let processed = loop.metrics(at: 3).fixesProcessed
        let last = try #require(loop.core.lastFix)
        loop.inbox.append(.init(fix: streetFix(last.time - 1000 - 1.5), receivedAt: 3.1))
        loop.inbox.append(.init(fix: last, receivedAt: 3.2))
        loop.run(from: 3, to: 4, fixes: { _ in false })
        #expect(loop.core.pipeline === pipeline, "a late fix is not a receiver reset")
        #expect(loop.core.lastFix == last)
        let metrics = loop.core.snapshot(at: 4, gnss: .init(connected: true, skipped: ["late": 3]))
        #expect(metrics.fixesProcessed == processed, "neither fix was used")
        #expect(metrics.gnssReceiverResets == 0)
        #expect(metrics.prometheusText.contains("adasis_gnss_records_skipped_total{reason=\"late\"} 5"))
    }

    @Test("WATCHDOG=1 at its interval, metrics at theirs, a late tick counted as an overrun")
    func schedule() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration("interval_s = 2\n"), opener: ScriptedOpener([.success(RecordingFrameSink())]),
            watchdog: 1.5)
        loop.run(from: 0, to: 6.05)
        #expect(loop.notifications.filter { $0 == "WATCHDOG=1" }.count == 5)  // 0, 1.5, 3, 4.5, 6
        let writes = loop.effects.filter { if case .writeMetrics(_, "/m.prom") = $0 { true } else { false } }
        #expect(writes.count == 3)  // 2, 4, 6
        #expect(loop.metrics(at: 6.05).tickOverruns == 0)
        loop.wake(at: 9)
        #expect(loop.metrics(at: 9).tickOverruns == 1)
        #expect(loop.core.nextTick > 9)
    }

    @Test("a reload applies new settings, switches the CAN interface and GNSS source, and keeps the counts")
    func reload() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 3)
        let sentBefore = loop.metrics(at: 3).framesSent.values.reduce(0, +)
        let new = try DaemonConfiguration(
            toml: """
                [map]
                path = "street.map"
                [can]
                interface = "vcan1"
                [gnss]
                source = "nmea"
                nmea_path = "/dev/ttyGNSS"
                [logging]
                level = "debug"
                [metrics]
                textfile = "/m.prom"
                """, source: "test.toml")
        let effects = loop.core.reload(new, newMap: nil, gnss: .init(connected: true, reconnects: 2, fixesDropped: 5))
        #expect(effects.contains(.switchCANInterface("vcan1")))
        #expect(effects.contains(.restartGNSS(.nmea(path: "/dev/ttyGNSS"))))
        #expect(effects.contains(.setLogLevel(.debug)))
        #expect(loop.core.bus.interface == "vcan1" && !loop.core.bus.isOpen)
        let metrics = loop.core.snapshot(at: 3, gnss: .init(connected: true, reconnects: 1, fixesDropped: 1))
        #expect(metrics.reloadsApplied == 1)
        #expect(metrics.gnssReconnects == 3, "the old source's reconnects are kept")
        #expect(metrics.gnssFixesDropped == 6, "the old source's dropped fixes are kept")
        #expect(metrics.prometheusText.contains("\nadasis_gnss_fixes_dropped_total 6\n"))
        #expect(metrics.framesSent.values.reduce(0, +) == sentBefore)
    }

    @Test("a reload whose settings do not fit is refused and the running configuration kept")
    func refusedReload() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        loop.run(from: 0, to: 2)
        let pipeline = loop.core.pipeline
        let clash = try daemonConfiguration("[can.identifiers]\nposition = 0x200\nsegment = 0x200\n")
        let effects = loop.core.reload(clash, newMap: nil, gnss: .init())
        #expect(effects.count == 1)
        #expect(
            effects.first.map { if case .log(.error, let line) = $0 { line.contains("reload refused") } else { false } }
                == true)
        #expect(loop.core.pipeline === pipeline)
        #expect(loop.core.snapshot(at: 2, gnss: .init()).reloadsRejected == 1)
        _ = loop.core.refuseReload("cannot read the file")
        #expect(loop.core.snapshot(at: 2, gnss: .init()).reloadsRejected == 2)
    }

    @Test("stopping says STOPPING=1 and writes the last metrics")
    func stop() throws {
        var core = try DaemonCore(
            configuration: try daemonConfiguration(), path: "t", map: street(), metadata: streetMetadata,
            watchdogInterval: nil, at: 0)
        let effects = core.stop(at: 1, gnss: .init(), signal: "SIGTERM")
        #expect(effects.contains(.notify("STOPPING=1")))
        #expect(effects.contains { if case .writeMetrics(_, "/m.prom") = $0 { true } else { false } })
        #expect(effects.first == .log(.notice, "SIGTERM: stopping"))
    }
}
