/// What the daemon reports to Prometheus, as plain numbers: a snapshot taken every
/// `metrics.interval_s` and written to `metrics.textfile`.
public struct DaemonMetrics: Hashable, Sendable {
    /// Why a frame was not sent.
    public enum DropReason: String, Hashable, Sendable, CaseIterable, Comparable {
        /// The provider's bus budget queue overflowed.
        case budget
        /// The CAN driver's transmit queue was full.
        case transmitQueueFull = "tx_queue_full"
        /// The CAN interface was down (or gone).
        case interfaceDown = "interface_down"

        /// Orders reasons by their metric label.
        public static func < (lhs: DropReason, rhs: DropReason) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A count of dropped frames of one message type for one reason.
    public struct DropKey: Hashable, Sendable, Comparable {
        /// The message type's configuration key (`position`, `profile_short`, …).
        public var type: String
        /// Why.
        public var reason: DropReason

        /// Frames of message type key `type` dropped for `reason`.
        public init(type: String, reason: DropReason) {
            self.type = type
            self.reason = reason
        }

        /// Orders keys by type, then reason.
        public static func < (lhs: DropKey, rhs: DropKey) -> Bool { (lhs.type, lhs.reason) < (rhs.type, rhs.reason) }
    }

    /// All counters zero, nothing known yet.
    public init() {}

    /// Frames sent, by message type key.
    public var framesSent: [String: Int] = [:]
    /// Frames dropped, by type and reason.
    public var framesDropped: [DropKey: Int] = [:]
    /// Retransmissions skipped for lack of bus budget.
    public var retransmissionsSkipped = 0
    /// New main paths started (first horizon, jumps, restarts after CAN faults).
    public var newMainPaths = 0
    /// GNSS fixes handed to the pipeline.
    public var fixesProcessed = 0
    /// Fixes the matcher rejected as invalid.
    public var fixesRejected = 0
    /// Seconds since the last fix (receiver time line); `nil` before the first fix.
    public var gnssAge: Double?
    /// Whether the GNSS source is connected (gpsd) or open (NMEA).
    public var gnssConnected = false
    /// Reconnections to gpsd after the first connection.
    public var gnssReconnects = 0
    /// GNSS fixes dropped unprocessed because the main loop fell behind (its fix inbox was full).
    public var gnssFixesDropped = 0
    /// GNSS records (gpsd lines, NMEA sentences) skipped as unusable, by reason; `late`: reports
    /// older than the fix before them (superseded before they were used).
    public var gnssRecordsSkipped: [String: Int] = [:]
    /// Receiver resets: fixes whose time went back, after which the horizon started again.
    public var gnssReceiverResets = 0
    /// Fixes that arrived late but in order, held up between the receiver and the daemon (more
    /// than `ReceiverTimeline.resynchroniseAfter` late): used, the time line and horizon kept.
    public var gnssFixesDelayed = 0
    /// Fixes the matcher took for outliers (far from where the vehicle can be: multipath, a receiver
    /// glitch) and coasted over (`MatcherConfiguration.outlierGateSigmas`).
    public var gnssOutliers = 0
    /// Fixes declared off road because no road of the map near them explains them as well as no
    /// road does (`MatcherConfiguration.offMapDistance`): a road missing from the map, a car park.
    public var offMapFixes = 0
    /// Fixes the dead reckoning fused with them coasted over: one far beyond its prediction, an
    /// outlier (`MatcherConfiguration.fusesDeadReckoning`).
    public var deadReckoningFixesCoasted = 0
    /// Times the fixes disagreed with the dead reckoning fused with them so that its track started
    /// again at the fix: a receiver jump, a wrong course.
    public var deadReckoningRestarts = 0
    /// Steps of dead reckoning taken by the velocity accuracy the receiver reported (gpsd's `eps`
    /// and `epd`).
    public var deadReckoningStepsByReportedVelocity = 0
    /// Steps of dead reckoning taken by the configured drifts (no velocity accuracy reported, or
    /// one more pessimistic than they are).
    public var deadReckoningStepsByConfiguredDrift = 0
    /// What the matcher takes off the fixes for the receiver's slowly varying error, metres east
    /// (`gnss.receiver_bias`; `nil` when off).
    public var receiverBiasEast: Double?
    /// The same, metres north.
    public var receiverBiasNorth: Double?
    /// How late the fix speeds are by the matcher's estimate, seconds (`gnss.speed_latency`; `nil`
    /// when off).
    public var speedLatency: Double?
    /// The part of it taken off the speeds, seconds.
    public var speedLatencyApplied: Double?
    /// The match state of the last fix: `unknown`, `on_road` or `off_road`.
    public var matchState = "unknown"
    /// Median processing time of the fixes of the last interval, seconds.
    public var fixLatencyMedian: Double?
    /// 99th percentile processing time of the fixes of the last interval, seconds.
    public var fixLatency99: Double?
    /// Fixes the latency quantiles were computed over.
    public var fixLatencySamples = 0
    /// Whether the CAN socket is open on an interface that is up.
    public var canUp = false
    /// Episodes of the CAN interface being down.
    public var canDownEpisodes = 0
    /// Bus-off events reported by the controller.
    public var busOffCount = 0
    /// Episodes of a full transmit queue.
    public var transmitQueueFullEpisodes = 0
    /// Configuration reloads (SIGHUP) that succeeded.
    public var reloadsApplied = 0
    /// Configuration reloads refused because the new file was invalid.
    public var reloadsRejected = 0
    /// Ticks that started late by more than a whole tick interval.
    public var tickOverruns = 0
    /// Episodes of the loop falling behind the fixes: the newest fix used was stale while newer
    /// ones waited in the inbox (not counted as a lost GNSS).
    public var processingBacklogs = 0
    /// Traffic feeds taken into use.
    public var trafficFeedsApplied = 0
    /// Traffic feeds refused whole (the previous traffic kept), by reason.
    public var trafficFeedsRefused: [String: Int] = [:]
    /// Records of taken traffic feeds left out, by reason.
    public var trafficRecordsSkipped: [String: Int] = [:]
    /// Road objects (incidents, congested stretches) the running traffic lays over the map.
    public var trafficObjects = 0
    /// Polls of `[traffic] url` taken.
    public var trafficPolls = 0
    /// Polls of `[traffic] url` that brought nothing usable (the previous traffic kept), by reason.
    public var trafficPollsFailed: [String: Int] = [:]
    /// Whether the traffic held is stale: served from the cache or kept while the server cannot be asked.
    public var trafficStale = false

    /// The snapshot in the Prometheus text format.
    public var prometheusText: String {
        var document = PrometheusText()
        document.append(
            "adasis_frames_sent_total", .counter, help: "CAN frames sent, by ADASIS v2 message type.",
            samples: framesSent.sorted { $0.key < $1.key }.map { .init([("type", $0.key)], Double($0.value)) })
        document.append(
            "adasis_frames_dropped_total", .counter,
            help: "CAN frames not sent, by message type and reason (budget, tx_queue_full, interface_down).",
            samples: framesDropped.sorted { $0.key < $1.key }
                .map { .init([("type", $0.key.type), ("reason", $0.key.reason.rawValue)], Double($0.value)) })
        document.append(
            "adasis_retransmissions_skipped_total", .counter,
            help: "Retransmissions skipped because the bus budget was used up.", value: Double(retransmissionsSkipped))
        document.append(
            "adasis_new_main_paths_total", .counter,
            help: "Fresh horizons started (first fix, jumps, CAN recoveries, reloads).", value: Double(newMainPaths))
        document.append(
            "adasis_gnss_fixes_total", .counter, help: "GNSS fixes processed.", value: Double(fixesProcessed))
        document.append(
            "adasis_gnss_fixes_rejected_total", .counter, help: "GNSS fixes the matcher rejected as invalid.",
            value: Double(fixesRejected))
        document.append(
            "adasis_gnss_fix_age_seconds", .gauge, help: "Seconds since the last GNSS fix (NaN before the first).",
            value: gnssAge ?? .nan)
        document.append(
            "adasis_gnss_connected", .gauge, help: "1 while gpsd is connected or the NMEA source is open.",
            value: gnssConnected ? 1 : 0)
        document.append(
            "adasis_gnss_reconnects_total", .counter, help: "Reconnections to gpsd after the first connection.",
            value: Double(gnssReconnects))
        document.append(
            "adasis_gnss_fixes_dropped_total", .counter,
            help: "GNSS fixes dropped unprocessed because the main loop fell behind (its fix inbox was full).",
            value: Double(gnssFixesDropped))
        document.append(
            "adasis_gnss_records_skipped_total", .counter,
            help: "GNSS records (gpsd lines, NMEA sentences) skipped as unusable or late, by reason.",
            byReason: gnssRecordsSkipped
        )
        document.append(
            "adasis_gnss_receiver_resets_total", .counter,
            help: "Fixes whose time went back (receiver resets); the horizon started again after each.",
            value: Double(gnssReceiverResets))
        document.append(
            "adasis_gnss_fixes_delayed_total", .counter,
            help: "Fixes that arrived over 2 s late but in order (a stall on their way); used, the horizon kept.",
            value: Double(gnssFixesDelayed))
        document.append(
            "adasis_gnss_outliers_total", .counter,
            help: "Fixes taken for outliers (far from where the vehicle can be: multipath) and coasted over.",
            value: Double(gnssOutliers))
        document.append(
            "adasis_off_map_fixes_total", .counter,
            help: "Fixes declared off road as no road of the map near them explains them (a road the map lacks).",
            value: Double(offMapFixes))
        document.append(
            "adasis_dead_reckoning_coasted_fixes_total", .counter,
            help: "Fixes far beyond the dead reckoning's prediction, coasted over (an outlier).",
            value: Double(deadReckoningFixesCoasted))
        document.append(
            "adasis_dead_reckoning_restarts_total", .counter,
            help:
                "Times the fixes disagreed with the dead reckoning and its track restarted at the fix (a jump, a wrong course).",
            value: Double(deadReckoningRestarts))
        document.append(
            "adasis_dead_reckoning_steps_total", .counter,
            help:
                "Steps of dead reckoning by the velocity accuracy the receiver reported (gpsd eps, epd) or by the configured drifts.",
            samples: [
                .init([("by", "reported_velocity")], Double(deadReckoningStepsByReportedVelocity)),
                .init([("by", "configured_drift")], Double(deadReckoningStepsByConfiguredDrift)),
            ])
        document.append(
            "adasis_gnss_receiver_bias_metres", .gauge,
            help:
                "What the matcher takes off the fixes for the receiver's slowly varying error ([gnss] receiver_bias).",
            label: "axis", values: [("east", receiverBiasEast), ("north", receiverBiasNorth)])
        document.append(
            "adasis_gnss_speed_latency_seconds", .gauge,
            help:
                "How late the fix speeds are by the matcher's estimate, and the part taken off them ([gnss] speed_latency).",
            label: "kind", values: [("estimate", speedLatency), ("applied", speedLatencyApplied)])
        document.append(
            "adasis_match_state", .gauge, help: "1 for the match state of the last fix.",
            samples: ["unknown", "on_road", "off_road"].map { .init([("state", $0)], $0 == matchState ? 1 : 0) })
        document.append(
            "adasis_fix_processing_seconds", .gauge,
            help: "Per-fix processing time (matching and horizon update) over the last interval.",
            samples: fixLatencySamples == 0
                ? []
                : [
                    .init([("quantile", "0.5")], fixLatencyMedian ?? .nan),
                    .init([("quantile", "0.99")], fixLatency99 ?? .nan),
                ])
        document.append(
            "adasis_fix_processing_samples", .gauge, help: "Fixes the processing-time quantiles cover.",
            value: Double(fixLatencySamples))
        document.append(
            "adasis_can_up", .gauge, help: "1 while the CAN socket is open on an interface that is up.",
            value: canUp ? 1 : 0)
        document.append(
            "adasis_can_down_episodes_total", .counter, help: "Times the CAN interface went down.",
            value: Double(canDownEpisodes))
        document.append(
            "adasis_can_bus_off_total", .counter, help: "Bus-off events of the CAN controller.",
            value: Double(busOffCount))
        document.append(
            "adasis_can_tx_queue_full_episodes_total", .counter, help: "Episodes of a full CAN transmit queue.",
            value: Double(transmitQueueFullEpisodes))
        document.append(
            "adasis_config_reloads_total", .counter, help: "Configuration reloads (SIGHUP), by result.",
            samples: [
                .init([("result", "applied")], Double(reloadsApplied)),
                .init([("result", "rejected")], Double(reloadsRejected)),
            ])
        document.append(
            "adasis_tick_overruns_total", .counter, help: "Ticks that started more than one interval late.",
            value: Double(tickOverruns))
        document.append(
            "adasis_processing_backlogs_total", .counter,
            help: "Episodes of the newest fix used going stale while newer fixes waited (the loop fell behind).",
            value: Double(processingBacklogs))
        document.append(
            "adasis_traffic_feeds_applied_total", .counter, help: "Traffic feeds taken into use.",
            value: Double(trafficFeedsApplied))
        document.append(
            "adasis_traffic_feeds_refused_total", .counter,
            help: "Traffic feeds refused whole, the previous traffic kept, by reason.",
            byReason: trafficFeedsRefused
        )
        document.append(
            "adasis_traffic_records_skipped_total", .counter,
            help: "Records of taken traffic feeds left out (invalid OpenLR, not on the map, ...), by reason.",
            byReason: trafficRecordsSkipped)
        document.append(
            "adasis_traffic_objects", .gauge, help: "Incidents and congested stretches laid over the map.",
            value: Double(trafficObjects))
        document.append(
            "adasis_traffic_polls_total", .counter, help: "Polls of the traffic feed URL.", value: Double(trafficPolls))
        document.append(
            "adasis_traffic_polls_failed_total", .counter,
            help: "Polls of the traffic feed URL that brought nothing usable, the previous traffic kept, by reason.",
            byReason: trafficPollsFailed)
        document.append(
            "adasis_traffic_stale", .gauge,
            help: "1 while the traffic held is stale (from the cache, the server cannot be asked), else 0.",
            value: trafficStale ? 1 : 0)
        return document.text
    }
}
