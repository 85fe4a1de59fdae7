import RoadMap

/// Identifies a path of the horizon tree. Stable while the path lives; never reused by an engine.
public struct PathID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw identifier.
    public var rawValue: Int
    /// Creates an identifier from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: PathID, rhs: PathID) -> Bool { lhs.rawValue < rhs.rawValue }
    /// Hashes as its raw value does.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The raw value's `IdentifierHash`: the provider looks paths up by identifier many times per
    /// tick, and a dictionary asks for this rather than building a `Hasher`.
    public func _rawHashValue(seed: Int) -> Int { IdentifierHash.of(UInt64(bitPattern: Int64(rawValue)), seed: seed) }
    public var description: String { "P\(rawValue)" }
}

/// A stretch of a path over which the segment attributes stay the same.
public struct PathSegment: Hashable, Sendable {
    /// Metres from the path start where the stretch begins.
    public var startOffset: Double
    /// Metres from the path start where it ends.
    public var endOffset: Double
    /// The attributes over the stretch.
    public var attributes: SegmentAttributes

    /// Creates a segment.
    public init(startOffset: Double, endOffset: Double, attributes: SegmentAttributes) {
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.attributes = attributes
    }
}

/// A path of the horizon tree: the main path or a side path, as directed links at fixed offsets.
public struct HorizonPath: Hashable, Sendable {
    /// The path's identifier.
    public var id: PathID
    /// The path it branches from, `nil` for the main path.
    public var parent: PathID?
    /// Offset on the parent path of the junction where this path branches off, `nil` for the main path.
    public var branchOffset: Double?
    /// 0 for the main path, 1 for paths branching off it, and so on.
    public var level: Int
    /// Probability of taking this path at its branch junction (1 for the main path).
    public var probability: Double
    /// Turn from the parent path onto this one, degrees in `(-180, 180]`, positive right;
    /// `nil` for the main path.
    public var turnAngle: Double?
    /// The links, in driving order; offsets start at 0 at the path start and never change
    /// (links dropped behind the vehicle leave the first offset above 0).
    public var links: [PathLink]

    /// Creates a path.
    public init(
        id: PathID, parent: PathID?, branchOffset: Double?, level: Int, probability: Double,
        turnAngle: Double?, links: [PathLink]
    ) {
        self.id = id
        self.parent = parent
        self.branchOffset = branchOffset
        self.level = level
        self.probability = probability
        self.turnAngle = turnAngle
        self.links = links
    }

    /// Offset of the first link still on the path.
    public var startOffset: Double { links.first?.startOffset ?? 0 }
    /// Offset of the end of the last link.
    public var endOffset: Double { links.last?.endOffset ?? 0 }

    /// Index of the link that covers `offset` (a link covers `[start, end)`, the last one its end
    /// too), `nil` outside the path.
    public func linkIndex(at offset: Double) -> Int? {
        guard let last = links.last, offset >= startOffset, offset <= last.endOffset else { return nil }
        var low = 0, high = links.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if links[middle].startOffset <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The segment attributes with the offsets where they change (consecutive equal links merged).
    public var segments: [PathSegment] {
        var result: [PathSegment] = []
        for link in links {
            if let last = result.last, last.attributes == link.attributes {
                result[result.count - 1].endOffset = link.endOffset
            } else {
                result.append(
                    PathSegment(
                        startOffset: link.startOffset, endOffset: link.endOffset,
                        attributes: link.attributes))
            }
        }
        return result
    }

    /// The curvature profile along the whole path (1/m, positive right).
    public var curvature: [PathProfilePoint] { links.flatMap(\.lazyCurvature) }
    /// The slope profile along the whole path (percent, positive uphill).
    public var slope: [PathProfilePoint] { links.flatMap(\.lazySlope) }
    /// Safety cameras and traffic signals for the driving direction, by offset.
    public var features: [PathFeature] { links.flatMap(\.lazyFeatures) }

    /// Offsets where the country or region changes (the path start counts as a change), with the
    /// new codes.
    package var countryChanges: [CountryChange] {
        var result: [CountryChange] = []
        for link in links {
            let change = CountryChange(
                offset: link.startOffset, countryCode: link.attributes.countryCode,
                regionCode: link.attributes.regionCode)
            if let last = result.last, (last.countryCode, last.regionCode) == (change.countryCode, change.regionCode) {
                continue
            }
            result.append(change)
        }
        return result
    }
}

/// Where a path enters another country or region (package API until a consumer needs it).
package struct CountryChange: Hashable, Sendable {
    /// Metres from the path start.
    package var offset: Double
    /// ISO 3166-1 numeric country code from here on, 0 unknown.
    package var countryCode: UInt16
    /// Project-defined region code from here on, 0 unknown.
    package var regionCode: UInt16
}

/// The horizon: a main path and the side paths that branch from it, by identifier.
public struct PathTree: Hashable, Sendable {
    /// Every path, by identifier (with each path's children indexed, see ``PathTable``).
    public var paths: PathTable
    /// The main path, `nil` when the tree is empty.
    public var mainPathID: PathID?

    /// Creates a tree.
    public init(paths: [PathID: HorizonPath] = [:], mainPathID: PathID? = nil) {
        self.paths = PathTable(paths)
        self.mainPathID = mainPathID
    }

    /// The main path.
    public var mainPath: HorizonPath? { mainPathID.flatMap { paths[$0] } }

    /// All paths sorted by identifier.
    public var sortedPaths: [HorizonPath] { paths.values.sorted { $0.id < $1.id } }

    /// The paths branching directly off `parent`, by branch offset then identifier.
    public func children(of parent: PathID) -> [HorizonPath] {
        // The table indexes every stored path under its parent, so each identifier resolves.
        paths.childIDs(of: parent).map { paths[$0]! }
    }

    /// `root` and every path below it, parents before children.
    public func subtree(of root: PathID) -> [PathID] {
        var result = [root]
        var index = 0
        while index < result.count {
            result.append(contentsOf: paths.childIDs(of: result[index]))
            index += 1
        }
        return result
    }
}
