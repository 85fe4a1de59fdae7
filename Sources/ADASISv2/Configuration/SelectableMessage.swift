/// A message type that a message configuration switches on or off, named by its configuration
/// key: the key under `[messages]` and `[can.identifiers]` in the daemon's configuration file, and
/// the name in metrics and logs.
public enum SelectableMessage: String, Hashable, Sendable, CaseIterable {
    /// POSITION (`position`).
    case position
    /// SEGMENT (`segment`).
    case segment
    /// STUB (`stub`).
    case stub
    /// PROFILE SHORT (`profile_short`).
    case profileShort = "profile_short"
    /// PROFILE LONG (`profile_long`).
    case profileLong = "profile_long"
    /// META-DATA (`meta_data`).
    case metaData = "meta_data"

    /// The message type on the wire.
    public var messageType: MessageType {
        switch self {
        case .position: .position
        case .segment: .segment
        case .stub: .stub
        case .profileShort: .profileShort
        case .profileLong: .profileLong
        case .metaData: .metaData
        }
    }

    /// The selectable message of `type`; `nil` for system-specific and reserved messages.
    public init?(_ type: MessageType) {
        guard let match = Self.allCases.first(where: { $0.messageType == type }) else { return nil }
        self = match
    }

    /// The configuration key of `type` (`profile_short`); the case name for types without one.
    public static func key(of type: MessageType) -> String {
        SelectableMessage(type)?.rawValue ?? "\(type)"
    }
}
