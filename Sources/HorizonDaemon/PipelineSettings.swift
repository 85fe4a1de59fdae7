import ADASISProvider
import ADASISv2
import DaemonConfiguration
import Horizon
import RoadMap

/// The pipeline settings a daemon configuration file describes: what the provider sends and how
/// far the horizon engine looks, with META-DATA taken from the map.
public struct PipelineSettings: Hashable, Sendable {
    /// The provider's configuration.
    public var provider: ProviderConfiguration
    /// The horizon engine's configuration.
    public var horizon: HorizonConfiguration
    /// The map matcher's configuration.
    public var matching: MatcherConfiguration

    /// Maps `configuration` onto the provider and horizon settings; `map` supplies META-DATA.
    /// - Throws: ``ConfigurationError`` naming the key when identifiers collide or do not fit.
    public init(_ configuration: DaemonConfiguration, map: MapMetadata, file: String) throws(ConfigurationError) {
        matching = MatcherConfiguration()
        matching.fusesDeadReckoning = configuration.fusesDeadReckoning
        matching.estimatesReceiverBias = configuration.estimatesReceiverBias
        matching.estimatesSpeedLatency = configuration.estimatesSpeedLatency
        matching.knownSpeedLatency = configuration.knownSpeedLatency
        let levels = Self.levels(lookAhead: configuration.lookAhead, maximumLevel: configuration.maximumLevel)
        horizon = HorizonConfiguration(
            lookAhead: levels, maximumLevel: levels.count - 1,
            trailingLength: configuration.trailingLength,
            minimumUpdateInterval: configuration.minimumUpdateInterval,
            minimumUpdateDistance: configuration.minimumUpdateDistance,
            mainPathGrowthPerUpdate: HorizonConfiguration.mainPathGrowth(setting: configuration.mainPathGrowth),
            roadObjectTypes: configuration.roadObjectTypes)
        horizon.sidePathTrailingLength = configuration.sidePathTrailingLength
        horizon.addsOneLinkLevel = configuration.addsOneLinkLevel
        horizon.keepsZeroProbabilityPaths = configuration.keepsZeroProbabilityPaths
        horizon.branchModel.offersUTurns = configuration.offersUTurns
        horizon.uTurnsOffSidePaths = configuration.offersUTurnsOffSidePaths
        if !configuration.holdsAtUnsureForks { horizon.unsureFork = nil }
        horizon.branchModel.deadEndFactor = configuration.culDeSacFactor
        horizon.branchModel.deadEndReach = configuration.culDeSacReach
        horizon.safetyLocationRules = configuration.safetyLocationRules
        horizon.places = PlaceCodes(map: map)
        var provider = ProviderConfiguration()
        provider.messages = Self.messageSelection(configuration)
        provider.identifiers = try Self.identifiers(configuration, file: file)
        provider.byteOrder = configuration.byteOrderLittleEndian ? .littleEndian : .bigEndian
        // The one-link level is sent too: one radius more, the deepest level's.
        provider.sendRadius = configuration.addsOneLinkLevel ? levels + [levels[levels.count - 1]] : levels
        provider.positionInterval = 1 / configuration.positionRate
        provider.metaDataInterval = configuration.metaDataInterval
        provider.metaDataStartupInterval = min(provider.metaDataStartupInterval, configuration.metaDataInterval)
        provider.retransmissionInterval = configuration.retransmissionInterval
        provider.offsetPolicy = configuration.offsetPolicy
        provider.framesPerTick = max(
            1, Int((Double(configuration.framesPer100Milliseconds) * provider.tickInterval / 0.1).rounded()))
        provider.trailingLength = configuration.trailingLength
        provider.roadObjectTypes = configuration.roadObjectTypes
        provider.positionStaleAfter = configuration.gnssStaleAfter
        provider.metaData = MetaDataMessage(map: map)
        provider.places = PlaceCodes(map: map)
        provider.digitisedArea = map.boundingBox.count == 4 ? map.boundingBox : nil
        self.provider = provider
    }

    /// The look-ahead per level down to `maximumLevel`, cut before the first level of length 0
    /// (a level of length 0 switches that level and the deeper ones off). Levels beyond
    /// `lookAhead` use its last length.
    public static func levels(lookAhead: [Double], maximumLevel: Int) -> [Double] {
        let deepest = lookAhead.last ?? 0
        let padded = lookAhead + Array(repeating: deepest, count: max(0, maximumLevel + 1 - lookAhead.count))
        let wanted = padded.prefix(max(0, maximumLevel) + 1)
        let used = wanted.prefix { $0 > 0 }
        return used.isEmpty ? [lookAhead.first ?? 2000] : Array(used)
    }

    /// The message selection: the preset with the per-type and per-profile switches applied.
    public static func messageSelection(_ configuration: DaemonConfiguration) -> MessageSelection {
        var selection = MessageSelection(preset: configuration.messagePreset)
        for (message, on) in configuration.messageOverrides { selection.set(message, sent: on) }
        for (profile, on) in configuration.profileOverrides { selection.set(profile, sent: on) }
        return selection
    }

    /// The identifier assignment: one multiplexed identifier, or the project's defaults with the
    /// configured per-type identifiers replacing them.
    public static func identifiers(_ configuration: DaemonConfiguration, file: String) throws(ConfigurationError)
        -> CANIdentifierAssignment
    {
        var perType: [MessageType: UInt32] = [:]
        for (type, identifier) in CANIdentifierAssignment.defaultIdentifiers { perType[type] = identifier }
        for (message, identifier) in configuration.identifiers { perType[message.messageType] = identifier }
        do throws(CANIdentifierError) {
            if let multiplexed = configuration.multiplexedIdentifier {
                return try CANIdentifierAssignment(
                    multiplexed: multiplexed, isExtended: configuration.extendedIdentifiers)
            }
            return try CANIdentifierAssignment(perType: perType, isExtended: configuration.extendedIdentifiers)
        } catch {
            let key = configuration.multiplexedIdentifier == nil ? "can.identifiers" : "can.multiplexed_identifier"
            throw ConfigurationError(file: file, key: key, line: nil, problem: error.description)
        }
    }

    /// The configuration key of a message type (`profile_short`), for metrics and logs.
    public static func key(of type: MessageType) -> String { SelectableMessage.key(of: type) }
}
