import ADASISProvider
import ADASISv2
import GNSSSources
import Horizon

extension DaemonCore {
    /// The counters at monotonic time `now` (retired pipelines, buses and sources included);
    /// `gnss` is the running source's state.
    public func snapshot(at now: Double, gnss: FixInbox.SourceState) -> DaemonMetrics {
        var metrics = retired
        Self.add(pipeline, to: &metrics)
        Self.add(bus, to: &metrics)
        metrics.canUp = bus.isOpen
        metrics.fixesProcessed = fixesProcessed
        metrics.gnssAge = lastFix.map { max(0, timeline.time(atMonotonic: now) - $0.time) }
        metrics.gnssConnected = gnss.connected
        metrics.gnssReconnects = retired.gnssReconnects + gnss.reconnects
        metrics.gnssFixesDropped = retired.gnssFixesDropped + gnss.fixesDropped
        for (reason, count) in gnss.skipped { metrics.gnssRecordsSkipped[reason, default: 0] += count }
        if lateFixes > 0 { metrics.gnssRecordsSkipped["late", default: 0] += lateFixes }
        metrics.gnssReceiverResets = receiverResets
        metrics.gnssFixesDelayed = delayedFixes
        metrics.matchState = pipeline.lastMatch?.state.name ?? "unknown"
        metrics.fixLatencyMedian = latency.quantile(0.5)
        metrics.fixLatency99 = latency.quantile(0.99)
        metrics.fixLatencySamples = latency.samples.count
        metrics.reloadsApplied = reloadsApplied
        metrics.reloadsRejected = reloadsRejected
        metrics.tickOverruns = tickOverruns
        metrics.processingBacklogs = processingBacklogs
        metrics.trafficFeedsApplied = traffic.applied
        metrics.trafficFeedsRefused = traffic.refused
        metrics.trafficRecordsSkipped = traffic.recordsSkipped
        metrics.trafficObjects = traffic.overlay?.objectCount ?? 0
        metrics.trafficPolls = trafficPolling.polls
        metrics.trafficPollsFailed = trafficPolling.failed
        metrics.trafficStale = trafficPolling.staleReason != nil && traffic.layer != nil
        return metrics
    }

    /// Folds the counts of a pipeline about to be replaced into ``retired``: all of them, or, when
    /// its matcher goes on in the new one (`matcherContinues`), the provider's only (the matcher's
    /// keep counting there).
    mutating func retire(_ old: HorizonPipeline, matcherContinues: Bool) {
        Self.add(old, to: &retired, includingMatcher: !matcherContinues)
    }

    /// Folds the counts of a bus about to be replaced into ``retired``.
    mutating func retire(_ old: CANBusState) {
        Self.add(old, to: &retired)
    }

    private static func add(_ bus: CANBusState, to metrics: inout DaemonMetrics) {
        for (key, count) in bus.dropped { metrics.framesDropped[key, default: 0] += count }
        metrics.canDownEpisodes += bus.faults.count(.interfaceDown)
        metrics.busOffCount += bus.busOffCount
        metrics.transmitQueueFullEpisodes += bus.faults.count(.transmitQueueFull)
    }

    /// Adds the counts of `pipeline`: its provider's and rejected fixes, and its matcher's unless
    /// `includingMatcher` is false (a matcher that goes on in a new pipeline, counted there).
    private static func add(
        _ pipeline: HorizonPipeline, to metrics: inout DaemonMetrics, includingMatcher: Bool = true
    ) {
        add(pipeline.provider.counters, rejected: pipeline.rejectedFixes, to: &metrics)
        guard includingMatcher else { return }
        let matcher = pipeline.matcher as? OnlineMapMatcher
        metrics.gnssOutliers += matcher?.outliers ?? 0
        metrics.offMapFixes += matcher?.offMapFixes ?? 0
        metrics.deadReckoningFixesCoasted += matcher?.deadReckoningFixesCoasted ?? 0
        metrics.deadReckoningRestarts += matcher?.deadReckoningRestarts ?? 0
        metrics.deadReckoningStepsByReportedVelocity += matcher?.deadReckoningSteps.byReportedVelocity ?? 0
        metrics.deadReckoningStepsByConfiguredDrift += matcher?.deadReckoningSteps.byConfiguredDrift ?? 0
        let correction = matcher?.receiverBiasCorrection
        metrics.receiverBiasEast = correction?.east
        metrics.receiverBiasNorth = correction?.north
        let latency = matcher?.speedLatency
        metrics.speedLatency = latency?.estimate
        metrics.speedLatencyApplied = latency?.applied
    }

    private static func add(_ counters: ProviderCounters, rejected: Int, to metrics: inout DaemonMetrics) {
        // The provider counts a frame when it releases it; those the socket then refused are
        // counted as dropped (with the reason), not as sent.
        for (type, count) in counters.framesSent {
            let refused = counters.framesDroppedBySender[type, default: 0]
            metrics.framesSent[PipelineSettings.key(of: type), default: 0] += count - refused
        }
        for (type, count) in counters.framesDroppedByBudget {
            metrics.framesDropped[.init(type: PipelineSettings.key(of: type), reason: .budget), default: 0] += count
        }
        metrics.retransmissionsSkipped += counters.retransmissionsSkipped
        metrics.newMainPaths += counters.newMainPaths
        metrics.fixesRejected += rejected
    }
}
