/// Identifies a link in a road map. Opaque: the map file assigns it (stable within one map file).
public struct LinkID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The raw identifier.
    public var rawValue: UInt64
    /// Creates an identifier from its raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// Creates an identifier from its raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: LinkID, rhs: LinkID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// Hashes as its raw value does.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The raw value's ``IdentifierHash``: the matcher and the horizon look links up in
    /// dictionaries at every fix, and a dictionary asks for this rather than building a `Hasher`.
    public func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(rawValue, seed: seed) }
    public var description: String { "L\(rawValue)" }
}

/// Identifies a junction (or attribute-change point) where links meet.
public struct NodeID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The raw identifier (the OSM node id of the junction).
    public var rawValue: Int64
    /// Creates an identifier from its raw value.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// Creates an identifier from its raw value.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// Hashes as its raw value does.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The raw value's ``IdentifierHash``, as for ``LinkID``.
    public func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(UInt64(bitPattern: rawValue), seed: seed) }
    public var description: String { "N\(rawValue)" }
}

/// A direction of travel on a link, relative to the order of its geometry.
public enum LinkDirection: UInt8, Hashable, Sendable, Codable {
    /// From the first geometry point (start node) to the last (end node).
    case forward = 0
    /// From the last geometry point to the first.
    case backward = 1

    /// The other direction.
    public var reversed: LinkDirection { self == .forward ? .backward : .forward }
}

/// A link travelled in one direction: the unit of paths, matching and routes.
public struct DirectedLink: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The link.
    public var link: LinkID
    /// The direction of travel.
    public var direction: LinkDirection

    /// Creates a directed link.
    public init(_ link: LinkID, _ direction: LinkDirection) {
        self.link = link
        self.direction = direction
    }

    /// The same link travelled the other way.
    public var reversed: DirectedLink { DirectedLink(link, direction.reversed) }

    /// The link and direction in one word (the identifier's top bit is shifted out: two links
    /// differing only there hash alike, which costs a dictionary one more comparison).
    private var packed: UInt64 { link.rawValue &<< 1 | UInt64(direction.rawValue) }
    /// Hashes as its packed word does.
    public func hash(into hasher: inout Hasher) { hasher.combine(packed) }
    /// The packed word's ``IdentifierHash``, as for ``LinkID``.
    public func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(packed, seed: seed) }

    public static func < (lhs: DirectedLink, rhs: DirectedLink) -> Bool {
        (lhs.link.rawValue, lhs.direction.rawValue) < (rhs.link.rawValue, rhs.direction.rawValue)
    }
    public var description: String { "\(link)\(direction == .forward ? "+" : "-")" }
}
