import ADASISv2
import RoadMap
import Routing

/// The daemon's configuration file (`/etc/adasis/adasis.toml`), read and checked.
///
/// Every key has a default except `map.path` and `can.interface`; unknown keys are errors (a
/// typo must not silently fall back to a default). See `udev/adasis.toml` for a commented
/// example with every key.
public struct DaemonConfiguration: Hashable, Sendable {
    /// Where GNSS fixes come from.
    public enum GNSSSource: Hashable, Sendable {
        /// gpsd's JSON protocol on TCP.
        case gpsd(host: String, port: Int)
        /// NMEA 0183 sentences from a serial device or a file.
        case nmea(path: String)
    }

    /// The map file.
    public var mapPath: String
    /// Byte budget of the tile cache, MiB.
    public var mapCacheMegabytes: Int
    /// GNSS input.
    public var gnss: GNSSSource
    /// Seconds without a fix after which the position is reported unknown and the horizon dropped.
    public var gnssStaleAfter: Double
    /// Whether each fix is fused with dead reckoning from the fix speeds and courses before it is
    /// matched (`gnss.dead_reckoning`, default true; `MatcherConfiguration.fusesDeadReckoning`):
    /// off for a receiver whose speed or course cannot be trusted.
    public var fusesDeadReckoning: Bool
    /// Whether the receiver's slowly varying error is estimated from the matched fixes and taken
    /// off the next ones (`gnss.receiver_bias`, default false; `MatcherConfiguration.estimatesReceiverBias`):
    /// for a receiver without corrections.
    public var estimatesReceiverBias: Bool
    /// Whether how late the fix speeds are is estimated from the dead reckoning and taken off them
    /// (`gnss.speed_latency`, default false; `MatcherConfiguration.estimatesSpeedLatency`): for a
    /// receiver that filters its velocity, or a speed from the vehicle stamped when it arrives.
    public var estimatesSpeedLatency: Bool
    /// How late the fix speeds are when that is known, seconds (`gnss.known_speed_latency_s`, −1…2,
    /// default none; `MatcherConfiguration.knownSpeedLatency`): applied from the first fix, not learnt.
    public var knownSpeedLatency: Double?
    /// The CAN interface.
    public var canInterface: String
    /// `big` (reference layout) or `little` (byte-reversed).
    public var byteOrderLittleEndian: Bool
    /// One multiplexed identifier for every message type, when set.
    public var multiplexedIdentifier: UInt32?
    /// Identifiers per message type (`[can.identifiers]`, keyed by ``SelectableMessage``).
    public var identifiers: [SelectableMessage: UInt32]
    /// 29-bit identifiers.
    public var extendedIdentifiers: Bool
    /// Message preset (`messages.preset`).
    public var messagePreset: MessageSelection.Preset
    /// Per-message-type overrides of the preset (`position = false`, …).
    public var messageOverrides: [SelectableMessage: Bool]
    /// Per-profile-type overrides (`curvature = true`, `slope_linear = false`, …).
    public var profileOverrides: [SelectableProfile: Bool]
    /// Look-ahead per level, metres (main, level 1, level 2; deeper levels use level 2's).
    public var lookAhead: [Double]
    /// Deepest side-path level (`horizon.max_level`, 0…``deepestLevel``).
    public var maximumLevel: Int
    /// Whether paths one level below ``maximumLevel`` are sent one link long, as HERE does
    /// (`horizon.one_link_level`, default false).
    public var addsOneLinkLevel: Bool
    /// Whether turns a turn restriction forbids are sent as side paths with probability 0
    /// (`horizon.zero_probability_paths`, default false; STUB RelativeProbability 0).
    public var keepsZeroProbabilityPaths: Bool
    /// Whether legal U-turns at junctions are sent as side paths with probability 0
    /// (`horizon.u_turns`, default false; ``BranchProbabilityModel/offersUTurns``).
    public var offersUTurns: Bool
    /// Whether those U-turns are offered at the side paths' junctions too, not only the main
    /// path's (`horizon.u_turns_off_side_paths`, default false, needs `horizon.u_turns`;
    /// `HorizonConfiguration.uTurnsOffSidePaths`).
    public var offersUTurnsOffSidePaths: Bool
    /// Whether the vehicle stays on the main path while the matcher is unsure just past a narrow
    /// fork (`horizon.unsure_fork`, default true; `HorizonConfiguration.unsureFork`).
    public var holdsAtUnsureForks: Bool
    /// Weight of a continuation whose every way on ends within ``culDeSacReach`` metres of the
    /// junction (`horizon.cul_de_sac_factor`, default 0.02, 1 turns it off;
    /// ``BranchProbabilityModel/deadEndFactor``).
    public var culDeSacFactor: Double
    /// How far every way on must end for a continuation to be a cul-de-sac, metres
    /// (`horizon.cul_de_sac_m`, default 120; ``BranchProbabilityModel/deadEndReach``).
    public var culDeSacReach: Double
    /// The deepest `horizon.max_level` accepted: the 56 regular path indices (8…63) cannot hold a
    /// deeper chain of paths.
    public static let deepestLevel = 55
    /// Horizon kept behind the vehicle, metres.
    public var trailingLength: Double
    /// How far behind the vehicle a side path's branch point may lie before the side path is
    /// dropped, metres (`horizon.side_path_trailing_m`, default 100, at most `horizon.trailing_m`;
    /// ``HorizonConfiguration/sidePathTrailingLength``).
    public var sidePathTrailingLength: Double
    /// Seconds between full recomputations of the horizon tree (cheap position updates in between).
    public var minimumUpdateInterval: Double
    /// Metres driven between full recomputations of the horizon tree.
    public var minimumUpdateDistance: Double
    /// How far the main path grows in one update, metres, once it holds the side paths'
    /// look-ahead and this much more, after a new tree or a turn (`horizon.main_path_growth_m`,
    /// default 300; 0 grows it to its whole look-ahead at once;
    /// ``HorizonConfiguration/mainPathGrowthPerUpdate``).
    public var mainPathGrowth: Double
    /// The road object types computed and sent (`horizon.objects`, e.g. `"tunnel,fixed_speed_camera"`;
    /// default `"all"`).
    public var roadObjectTypes: Set<RoadObjectType>
    /// POSITION messages per second.
    public var positionRate: Double
    /// Seconds between META-DATA messages in steady state.
    public var metaDataInterval: Double
    /// Seconds between retransmissions of the nearby horizon.
    public var retransmissionInterval: Double
    /// `wrap` (offsets modulo 8191) or `new_path` (a new main path before the window reaches 8191 m).
    public var offsetPolicy: OffsetPolicy
    /// Bus budget: frames allowed per 100 ms.
    public var framesPer100Milliseconds: Int
    /// Log level: trace, debug, info, notice, warning, error, critical.
    public var logLevel: String
    /// Prometheus textfile to write counters to, when set.
    public var metricsTextfile: String?
    /// Seconds between metric file updates.
    public var metricsInterval: Double
    /// The legal filter's table (`safety_locations.rules`), `nil` for the shipped default.
    public var safetyRulesPath: String?
    /// The legal filter for safety locations: the shipped default until ``load(path:)`` (in
    /// HorizonDaemon) reads the table ``safetyRulesPath`` names.
    public var safetyLocationRules: SafetyLocationRules
    /// How the active route is replanned (`[routing]`).
    public var routing: RouteSessionConfiguration
    /// The head unit's route interface on D-Bus (`[dbus]`).
    public var dbus: DBusSettings
    /// The traffic feed (`[traffic]`).
    public var traffic: TrafficSettings

    /// Reads a configuration from TOML text; `source` names the file in errors.
    public init(toml text: String, source: String) throws(ConfigurationError) {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw ConfigurationError(file: source, key: nil, line: error.line, problem: error.message)
        }
        var reader = ConfigurationReader(document: document, file: source)
        mapPath = try reader.string("map.path")
        mapCacheMegabytes = try reader.integer("map.cache_mb", default: 64, range: 1...65_536)
        let sourceKind = try reader.string("gnss.source", default: "gpsd", allowed: ["gpsd", "nmea"])
        let host = try reader.string("gnss.gpsd_host", default: "127.0.0.1")
        let port = try reader.integer("gnss.gpsd_port", default: 2947, range: 1...65_535)
        let nmeaPath = try reader.optionalString("gnss.nmea_path")
        if sourceKind == "nmea" {
            guard let nmeaPath else {
                throw ConfigurationError(
                    file: source, key: "gnss.nmea_path", line: document.lines["gnss.source"],
                    problem: "required when gnss.source = \"nmea\" (a serial device such as /dev/ttyACM0, or a file)")
            }
            gnss = .nmea(path: nmeaPath)
        } else {
            gnss = .gpsd(host: host, port: port)
        }
        gnssStaleAfter = try reader.number("gnss.stale_after_s", default: 2, range: 0.1...60)
        fusesDeadReckoning = try reader.boolean("gnss.dead_reckoning", default: true)
        estimatesReceiverBias = try reader.boolean("gnss.receiver_bias", default: false)
        estimatesSpeedLatency = try reader.boolean("gnss.speed_latency", default: false)
        knownSpeedLatency = try reader.optionalNumber("gnss.known_speed_latency_s", range: -1...2)
        if estimatesSpeedLatency && knownSpeedLatency != nil {
            throw ConfigurationError(
                file: source, key: "gnss.known_speed_latency_s", line: document.lines["gnss.known_speed_latency_s"],
                problem: "give either speed_latency = true (learn it) or known_speed_latency_s (a latency you know)")
        }
        if estimatesSpeedLatency && !fusesDeadReckoning {
            throw ConfigurationError(
                file: source, key: "gnss.speed_latency", line: document.lines["gnss.speed_latency"],
                problem: "is learnt from dead reckoning: set gnss.dead_reckoning = true, or speed_latency = false")
        }
        canInterface = try reader.string("can.interface")
        byteOrderLittleEndian =
            try reader.string("can.byte_order", default: "big", allowed: ["big", "little"]) == "little"
        extendedIdentifiers = try reader.boolean("can.extended_identifiers", default: false)
        let maximumIdentifier = extendedIdentifiers ? 0x1FFF_FFFF : 0x7FF
        multiplexedIdentifier = try reader.optionalInteger("can.multiplexed_identifier", range: 0...maximumIdentifier)
            .map(UInt32.init)
        identifiers = [:]
        for type in SelectableMessage.allCases {
            if let id = try reader.optionalInteger("can.identifiers.\(type.rawValue)", range: 0...maximumIdentifier) {
                identifiers[type] = UInt32(id)
            }
        }
        messagePreset = try reader.choice("messages.preset", default: .default)
        messageOverrides = [:]
        for type in SelectableMessage.allCases {
            if let on = try reader.optionalBoolean("messages.\(type.rawValue)") { messageOverrides[type] = on }
        }
        profileOverrides = [:]
        for type in SelectableProfile.allCases {
            if let on = try reader.optionalBoolean("messages.profiles.\(type.rawValue)") { profileOverrides[type] = on }
        }
        lookAhead = [
            try reader.number("horizon.main_length_m", default: 2000, range: 100...8000),
            try reader.number("horizon.level1_length_m", default: 500, range: 0...8000),
            try reader.number("horizon.level2_length_m", default: 500, range: 0...8000),
        ]
        maximumLevel = try reader.integer("horizon.max_level", default: 2, range: 0...Self.deepestLevel)
        addsOneLinkLevel = try reader.boolean("horizon.one_link_level", default: false)
        keepsZeroProbabilityPaths = try reader.boolean("horizon.zero_probability_paths", default: false)
        offersUTurns = try reader.boolean("horizon.u_turns", default: false)
        offersUTurnsOffSidePaths = try reader.boolean("horizon.u_turns_off_side_paths", default: false)
        if offersUTurnsOffSidePaths, !offersUTurns {
            throw reader.error(
                "horizon.u_turns_off_side_paths",
                "needs horizon.u_turns = true (U-turns off the side paths are offered only with U-turns)")
        }
        holdsAtUnsureForks = try reader.boolean("horizon.unsure_fork", default: true)
        culDeSacFactor = try reader.number("horizon.cul_de_sac_factor", default: 0.02, range: 0...1)
        culDeSacReach = try reader.number("horizon.cul_de_sac_m", default: 120, range: 0...1000)
        trailingLength = try reader.number("horizon.trailing_m", default: 200, range: 0...2000)
        sidePathTrailingLength = try reader.number("horizon.side_path_trailing_m", default: 100, range: 0...2000)
        minimumUpdateInterval = try reader.number("horizon.min_update_interval_s", default: 1, range: 0...60)
        roadObjectTypes = try reader.roadObjectTypes("horizon.objects")
        minimumUpdateDistance = try reader.number("horizon.min_update_distance_m", default: 10, range: 0...1000)
        mainPathGrowth = try reader.number("horizon.main_path_growth_m", default: 300, range: 0...8000)
        positionRate = try reader.number("provider.position_rate_hz", default: 10, range: 0.2...100)
        metaDataInterval = try reader.number("provider.metadata_interval_s", default: 5, range: 0.1...60)
        retransmissionInterval = try reader.number("provider.retransmission_interval_s", default: 2, range: 0.1...60)
        offsetPolicy = try reader.choice("provider.offset_policy", default: .wrap)
        framesPer100Milliseconds = try reader.integer("provider.frames_per_100ms", default: 25, range: 1...1000)
        logLevel = try reader.string(
            "logging.level", default: "info",
            allowed: ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        metricsTextfile = try reader.optionalString("metrics.textfile")
        metricsInterval = try reader.number("metrics.interval_s", default: 5, range: 0.5...3600)
        safetyRulesPath = try reader.optionalString("safety_locations.rules")
        safetyLocationRules = try SafetyLocationRules.shippedDefault()
        routing = try reader.routing()
        dbus = try reader.dbus()
        traffic = try reader.traffic()
        try reader.rejectUnknownKeys()
    }
}
