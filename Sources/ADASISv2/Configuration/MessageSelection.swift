/// Which messages and profile types a provider sends: the "message configuration".
///
/// Presets: ``default`` (POSITION, STUB, SEGMENT, META-DATA — the set production systems ship),
/// ``all`` (every type and every profile this project produces), ``mini`` (ADASIS v2 "mini":
/// only the SEGMENT of the current link, path index 4). Start from a preset and switch single
/// types on or off.
public struct MessageSelection: Hashable, Sendable {
    /// The named presets.
    public enum Preset: String, Hashable, Sendable, CaseIterable {
        /// POSITION, STUB, SEGMENT, META-DATA.
        case `default`
        /// Everything: also PROFILE SHORT (curvature, slope, cameras, signals) and PROFILE LONG
        /// (shape points, link identifiers).
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

    /// Profile types this project produces.
    public static let producedShortTypes: Set<ProfileShortType> = [.curvature, .slopeLinear, .slopeStep, .safetyCamera, .trafficSignals]
    /// PROFILE LONG types this project produces.
    public static let producedLongTypes: Set<ProfileLongType> = [.longitude, .latitude, .linkIdentifier]

    /// The selection of `preset`.
    public init(preset: Preset) {
        continuationStubs = false
        switch preset {
        case .default:
            messageTypes = [.position, .stub, .segment, .metaData]
            profileShortTypes = [.curvature, .slopeLinear, .safetyCamera, .trafficSignals]
            profileLongTypes = [.longitude, .latitude, .linkIdentifier]
            currentLinkOnly = false
        case .all:
            messageTypes = [.position, .stub, .segment, .metaData, .profileShort, .profileLong]
            profileShortTypes = [.curvature, .slopeLinear, .safetyCamera, .trafficSignals]
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
    public func sends(_ type: ProfileShortType) -> Bool { messageTypes.contains(.profileShort) && profileShortTypes.contains(type) }

    /// Whether PROFILE LONG of `type` is sent.
    public func sends(_ type: ProfileLongType) -> Bool { messageTypes.contains(.profileLong) && profileLongTypes.contains(type) }
}
