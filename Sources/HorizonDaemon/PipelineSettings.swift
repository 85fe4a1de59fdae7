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

    /// Maps `configuration` onto the provider and horizon settings; `map` supplies META-DATA.
    /// - Throws: ``ConfigurationError`` naming the key when identifiers collide or do not fit.
    public init(_ configuration: DaemonConfiguration, map: MapMetadata, file: String) throws(ConfigurationError) {
        let levels = Self.levels(lookAhead: configuration.lookAhead, maximumLevel: configuration.maximumLevel)
        horizon = HorizonConfiguration(lookAhead: levels, maximumLevel: levels.count - 1,
                                       trailingLength: configuration.trailingLength,
                                       minimumUpdateInterval: configuration.minimumUpdateInterval,
                                       minimumUpdateDistance: configuration.minimumUpdateDistance)
        var provider = ProviderConfiguration()
        provider.messages = try Self.messageSelection(configuration, file: file)
        provider.identifiers = try Self.identifiers(configuration, file: file)
        provider.byteOrder = configuration.byteOrderLittleEndian ? .littleEndian : .bigEndian
        provider.sendRadius = levels
        provider.positionInterval = 1 / configuration.positionRate
        provider.metaDataInterval = configuration.metaDataInterval
        provider.metaDataStartupInterval = min(provider.metaDataStartupInterval, configuration.metaDataInterval)
        provider.retransmissionInterval = configuration.retransmissionInterval
        provider.offsetPolicy = ProviderConfiguration.OffsetPolicy(rawValue: configuration.offsetPolicy) ?? .wrap
        provider.framesPerTick = max(1, Int((Double(configuration.framesPer100Milliseconds) * provider.tickInterval / 0.1).rounded()))
        provider.trailingLength = configuration.trailingLength
        provider.positionStaleAfter = configuration.gnssStaleAfter
        provider.metaData = MetaDataMessage(map: map)
        provider.digitisedArea = map.boundingBox.count == 4 ? map.boundingBox : nil
        self.provider = provider
    }

    /// The look-ahead per level down to `maximumLevel`, cut before the first level of length 0
    /// (a level of length 0 switches that level and the deeper ones off).
    public static func levels(lookAhead: [Double], maximumLevel: Int) -> [Double] {
        let wanted = lookAhead.prefix(max(0, maximumLevel) + 1)
        let used = wanted.prefix { $0 > 0 }
        return used.isEmpty ? [lookAhead.first ?? 2000] : Array(used)
    }

    /// The message selection: the preset with the per-type and per-profile switches applied.
    public static func messageSelection(_ configuration: DaemonConfiguration, file: String) throws(ConfigurationError) -> MessageSelection {
        guard let preset = MessageSelection.Preset(rawValue: configuration.messagePreset) else {
            throw ConfigurationError(file: file, key: "messages.preset", line: nil,
                                     problem: "'\(configuration.messagePreset)' is not a preset")
        }
        var selection = MessageSelection(preset: preset)
        for (name, on) in configuration.messageOverrides {
            guard let type = messageTypes[name] else {
                throw ConfigurationError(file: file, key: "messages.\(name)", line: nil, problem: "not a message type")
            }
            if on { selection.messageTypes.insert(type) } else { selection.messageTypes.remove(type) }
        }
        for (name, on) in configuration.profileOverrides {
            if let type = profileShortTypes[name] {
                if on { selection.profileShortTypes.insert(type) } else { selection.profileShortTypes.remove(type) }
            } else if let type = profileLongTypes[name] {
                if on { selection.profileLongTypes.insert(type) } else { selection.profileLongTypes.remove(type) }
            } else {
                throw ConfigurationError(file: file, key: "messages.profiles.\(name)", line: nil, problem: "not a profile type")
            }
        }
        return selection
    }

    /// The identifier assignment: one multiplexed identifier, or the project's defaults with the
    /// configured per-type identifiers replacing them.
    public static func identifiers(_ configuration: DaemonConfiguration, file: String) throws(ConfigurationError) -> CANIdentifierAssignment {
        var perType: [MessageType: UInt32] = [:]
        for (type, identifier) in CANIdentifierAssignment.defaultIdentifiers { perType[type] = identifier }
        for (name, identifier) in configuration.identifiers {
            guard let type = messageTypes[name] else {
                throw ConfigurationError(file: file, key: "can.identifiers.\(name)", line: nil, problem: "not a message type")
            }
            perType[type] = identifier
        }
        do throws(CANIdentifierError) {
            if let multiplexed = configuration.multiplexedIdentifier {
                return try CANIdentifierAssignment(multiplexed: multiplexed, isExtended: configuration.extendedIdentifiers)
            }
            return try CANIdentifierAssignment(perType: perType, isExtended: configuration.extendedIdentifiers)
        } catch {
            let key = configuration.multiplexedIdentifier == nil ? "can.identifiers" : "can.multiplexed_identifier"
            throw ConfigurationError(file: file, key: key, line: nil, problem: error.description)
        }
    }

    /// Message types by their configuration key.
    public static let messageTypes: [String: MessageType] = [
        "position": .position, "segment": .segment, "stub": .stub, "profile_short": .profileShort,
        "profile_long": .profileLong, "meta_data": .metaData,
    ]

    /// PROFILE SHORT types by their configuration key.
    public static let profileShortTypes: [String: ProfileShortType] = [
        "curvature": .curvature, "slope_linear": .slopeLinear, "slope_step": .slopeStep,
        "safety_camera": .safetyCamera, "traffic_signals": .trafficSignals,
    ]

    /// PROFILE LONG types by their configuration key.
    public static let profileLongTypes: [String: ProfileLongType] = [
        "longitude": .longitude, "latitude": .latitude, "link_identifier": .linkIdentifier,
    ]

    /// The configuration key of a message type (`profile_short`), for metrics and logs.
    public static func key(of type: MessageType) -> String {
        messageTypes.first { $0.value == type }?.key ?? "\(type)"
    }
}
