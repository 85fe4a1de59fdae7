/// Which messages and profile types a provider sends: the "message configuration".
///
/// Presets: ``default`` (POSITION, STUB, SEGMENT, META-DATA — the set production systems ship),
/// ``all`` (every type and every profile this project produces), ``mini`` (ADASIS v2 "mini":
/// only the SEGMENT of the current link, path index 4). Start from a preset and switch single
/// types on or off.
public struct MessageSelection: Hashable, Sendable {
    /// The named presets; the raw value is the configuration key (`messages.preset`, `replay --preset`).
    public enum Preset: String, Hashable, Sendable, CaseIterable {
        /// POSITION, STUB, SEGMENT, META-DATA.
        case `default`
        /// Everything: also PROFILE SHORT (curvature, slope, cameras, signals, road objects, the
        /// traffic speed while a traffic layer is active) and PROFILE LONG (shape points, link
        /// identifiers).
        case all
        /// SEGMENT of the current link only.
        case mini
    }

    /// Message types sent.
    public var messageTypes: Set<MessageType>
    /// PROFILE SHORT types sent (when PROFILE SHORT is on).
    public var profileShortTypes: Set<ProfileShortType>
    /// PROFILE LONG types sent (when PROFILE LONG is on).
    public var profileLongTypes: Set<ProfileLongType>
    /// Only the current link's SEGMENT, with path index 4 (the "mini" horizon).
    public var currentLinkOnly: Bool
    /// Send a continuation stub (sub-path index 6) after the stubs of each junction.
    public var continuationStubs: Bool

    /// The selection of `preset`.
    public init(preset: Preset) {
        continuationStubs = false
        switch preset {
        case .default:
            messageTypes = [.position, .stub, .segment, .metaData]
            profileShortTypes = [
                .curvature, .slopeLinear, .safetyCamera, .trafficSignals, .roadObject, .roadObjectZoneStart,
                .trafficSpeed,
            ]
            profileLongTypes = [.longitude, .latitude, .linkIdentifier]
            currentLinkOnly = false
        case .all:
            messageTypes = [.position, .stub, .segment, .metaData, .profileShort, .profileLong]
            profileShortTypes = [
                .curvature, .slopeLinear, .safetyCamera, .trafficSignals, .roadObject, .roadObjectZoneStart,
                .trafficSpeed,
            ]
            profileLongTypes = [.longitude, .latitude, .linkIdentifier]
            currentLinkOnly = false
        case .mini:
            messageTypes = [.segment]
            profileShortTypes = []
            profileLongTypes = []
            currentLinkOnly = true
        }
    }

    /// Whether `type` is sent.
    public func sends(_ type: MessageType) -> Bool { messageTypes.contains(type) }

    /// Whether PROFILE SHORT of `type` is sent.
    public func sends(_ type: ProfileShortType) -> Bool {
        messageTypes.contains(.profileShort) && profileShortTypes.contains(type)
    }

    /// Whether PROFILE LONG of `type` is sent.
    public func sends(_ type: ProfileLongType) -> Bool {
        messageTypes.contains(.profileLong) && profileLongTypes.contains(type)
    }

    /// Switches `message` on or off.
    public mutating func set(_ message: SelectableMessage, sent: Bool) {
        if sent { messageTypes.insert(message.messageType) } else { messageTypes.remove(message.messageType) }
    }

    /// Switches `profile` on or off (its PROFILE SHORT or LONG message is left as it is).
    public mutating func set(_ profile: SelectableProfile, sent: Bool) {
        if let type = profile.shortType {
            if sent { profileShortTypes.insert(type) } else { profileShortTypes.remove(type) }
        }
        if let type = profile.longType {
            if sent { profileLongTypes.insert(type) } else { profileLongTypes.remove(type) }
        }
    }

    /// Sends exactly `profiles`: the other profile types are switched off, and PROFILE SHORT or
    /// LONG is switched on when one of its types is listed.
    public mutating func sendOnly(_ profiles: [SelectableProfile]) {
        profileShortTypes = Set(profiles.compactMap(\.shortType))
        profileLongTypes = Set(profiles.compactMap(\.longType))
        if !profileShortTypes.isEmpty { messageTypes.insert(.profileShort) }
        if !profileLongTypes.isEmpty { messageTypes.insert(.profileLong) }
    }
}
