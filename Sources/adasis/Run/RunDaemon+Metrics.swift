import ADASISProvider
import ADASISv2
import Foundation

extension RunDaemon {
    /// Folds the counts of a pipeline about to be replaced into ``retired``.
    func retire(_ old: HorizonPipeline) {
        Self.add(old.provider.counters, rejected: old.rejectedFixes, to: &retired)
    }

    /// Folds the counts of a transmitter about to be replaced into ``retired``.
    func retire(_ old: CANTransmitter) {
        for (key, count) in old.dropped { retired.framesDropped[key, default: 0] += count }
        retired.canDownEpisodes += old.faults.count(.interfaceDown)
        retired.busOffCount += old.busOffCount
        retired.transmitQueueFullEpisodes += old.faults.count(.transmitQueueFull)
    }

    /// The counters now (retired pipelines and transmitters included).
    func snapshot(at now: Double) -> DaemonMetrics {
        var metrics = retired
        Self.add(pipeline.provider.counters, rejected: pipeline.rejectedFixes, to: &metrics)
        for (key, count) in transmitter.dropped { metrics.framesDropped[key, default: 0] += count }
        metrics.canDownEpisodes += transmitter.faults.count(.interfaceDown)
        metrics.busOffCount += transmitter.busOffCount
        metrics.transmitQueueFullEpisodes += transmitter.faults.count(.transmitQueueFull)
        metrics.canUp = transmitter.isOpen
        metrics.fixesProcessed = fixesProcessed
        metrics.gnssAge = lastFix.map { max(0, timeline.time(atMonotonic: now) - $0.time) }
        let source = inbox.source
        metrics.gnssConnected = source.connected
        metrics.gnssReconnects = retired.gnssReconnects + source.reconnects
        metrics.matchState = pipeline.lastMatch?.state.name ?? "unknown"
        metrics.fixLatencyMedian = latency.quantile(0.5)
        metrics.fixLatency99 = latency.quantile(0.99)
        metrics.fixLatencySamples = latency.samples.count
        metrics.reloadsApplied = reloadsApplied
        metrics.reloadsRejected = reloadsRejected
        metrics.tickOverruns = tickOverruns
        return metrics
    }

    /// Writes the metrics file (if configured) and starts the next latency interval.
    func writeMetrics(at now: Double) {
        defer { latency.reset() }
        guard let path = configuration.metricsTextfile else { return }
        do {
            try MetricsFile.write(snapshot(at: now).prometheusText, to: path)
            if metricsFailing { logger.notice("metrics file \(path) written again") }
            metricsFailing = false
        } catch {
            if !metricsFailing { logger.error("\(error)") }
            metricsFailing = true
        }
    }

    private static func add(_ counters: ProviderCounters, rejected: Int, to metrics: inout DaemonMetrics) {
        for (type, count) in counters.framesSent { metrics.framesSent[PipelineSettings.key(of: type), default: 0] += count }
        for (type, count) in counters.framesDroppedByBudget {
            metrics.framesDropped[.init(type: PipelineSettings.key(of: type), reason: .budget), default: 0] += count
        }
        metrics.retransmissionsSkipped += counters.retransmissionsSkipped
        metrics.newMainPaths += counters.newMainPaths
        metrics.fixesRejected += rejected
    }
}
