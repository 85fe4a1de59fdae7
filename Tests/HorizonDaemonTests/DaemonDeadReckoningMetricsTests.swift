import Testing
@testable import HorizonDaemon

/// `adasis_dead_reckoning_steps_total{by=…}`: whether the receiver's velocity accuracy (gpsd's
/// `eps` and `epd`) is what dead reckoning goes by, for an engineer checking a head unit's receiver.
@Suite("adasis run: dead reckoning steps by what they went by")
struct DaemonDeadReckoningMetricsTests {
    @Test("fixes that report a good velocity accuracy are counted apart from fixes that report none")
    func stepsByReportedVelocityAndByConfiguredDrift() throws {
        var loop = try SimulatedRunLoop(
            try daemonConfiguration(), opener: ScriptedOpener([.success(RecordingFrameSink())]))
        // Seconds 0-5 say nothing of their velocity; 6-11 report 0.05 m/s and 0.5°.
        for second in 0..<12 {
            var fix = streetFix(Double(second))
            if second >= 6 {
                fix.speedAccuracy = 0.05
                fix.headingAccuracy = 0.5
            }
            loop.inbox.append(.init(fix: fix, receivedAt: Double(second) + 0.1))
            loop.run(from: Double(second), to: Double(second) + 1, fixes: { _ in false })
        }
        let metrics = loop.metrics(at: 12)
        // Steps 1-6 (the sixth into the first fix that reports) by the drifts, 7-11 by the accuracy.
        #expect(metrics.deadReckoningStepsByConfiguredDrift == 6)
        #expect(metrics.deadReckoningStepsByReportedVelocity == 5)
        #expect(metrics.prometheusText.contains("adasis_dead_reckoning_steps_total{by=\"reported_velocity\"} 5"))
        #expect(metrics.prometheusText.contains("adasis_dead_reckoning_steps_total{by=\"configured_drift\"} 6"))
    }
}
