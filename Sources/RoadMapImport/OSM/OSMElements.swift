import RoadMap

/// An OSM node as read from a PBF file.
public struct OSMNode: Hashable, Sendable {
    /// The node id.
    public var id: Int64
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Tags (empty for most nodes).
    public var tags: [String: String]

    /// Creates a node.
    public init(id: Int64, latitude: Double, longitude: Double, tags: [String: String] = [:]) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.tags = tags
    }
}

/// An OSM way: an ordered list of node references with tags.
public struct OSMWay: Hashable, Sendable {
    /// The way id.
    public var id: Int64
    /// Node ids in order.
    public var nodeIDs: [Int64]
    /// Tags.
    public var tags: [String: String]

    /// Creates a way.
    public init(id: Int64, nodeIDs: [Int64], tags: [String: String] = [:]) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }
}

/// An OSM relation: typed, role-annotated members with tags.
public struct OSMRelation: Hashable, Sendable {
    /// The kind of a relation member.
    public enum MemberType: UInt8, Hashable, Sendable { case node = 0, way = 1, relation = 2 }
    /// One member.
    public struct Member: Hashable, Sendable {
        /// Node, way or relation.
        public var type: MemberType
        /// The member's id.
        public var id: Int64
        /// Its role (`from`, `via`, `to`, `outer`, `device`, …).
        public var role: String
        /// Creates a member.
        public init(type: MemberType, id: Int64, role: String) {
            self.type = type
            self.id = id
            self.role = role
        }
    }
    /// The relation id.
    public var id: Int64
    /// Members in order.
    public var members: [Member]
    /// Tags.
    public var tags: [String: String]

    /// Creates a relation.
    public init(id: Int64, members: [Member], tags: [String: String] = [:]) {
        self.id = id
        self.members = members
        self.tags = tags
    }
}

/// The header of an OSM PBF file (`OSMHeader` block).
public struct OSMHeader: Hashable, Sendable {
    /// Bounding box (min lat, min lon, max lat, max lon) in degrees, when present.
    public var boundingBox: (minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double)?
    /// `required_features` (e.g. `OsmSchema-V0.6`, `DenseNodes`).
    public var requiredFeatures: [String]
    /// The program that wrote the file.
    public var writingProgram: String?
    /// `osmosis_replication_timestamp`, seconds since the epoch, when present.
    public var replicationTimestamp: Int64?

    /// Creates a header.
    public init(
        boundingBox: (minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double)? = nil,
        requiredFeatures: [String] = [], writingProgram: String? = nil, replicationTimestamp: Int64? = nil
    ) {
        self.boundingBox = boundingBox
        self.requiredFeatures = requiredFeatures
        self.writingProgram = writingProgram
        self.replicationTimestamp = replicationTimestamp
    }

    public static func == (lhs: OSMHeader, rhs: OSMHeader) -> Bool {
        lhs.requiredFeatures == rhs.requiredFeatures && lhs.writingProgram == rhs.writingProgram
            && lhs.replicationTimestamp == rhs.replicationTimestamp
            && lhs.boundingBox.map { [$0.minLatitude, $0.minLongitude, $0.maxLatitude, $0.maxLongitude] }
                == rhs.boundingBox.map { [$0.minLatitude, $0.minLongitude, $0.maxLatitude, $0.maxLongitude] }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(requiredFeatures)
        hasher.combine(writingProgram)
    }
}

/// One element of an OSM file, in file order (nodes, then ways, then relations in sorted files).
public enum OSMElement: Hashable, Sendable {
    case node(OSMNode)
    case way(OSMWay)
    case relation(OSMRelation)
}

/// Which kinds of element a reader decodes (``OSMPBFReader/init(path:threads:kinds:)``): the others
/// are skipped undecoded, and a block holding none of the kinds asked for is not decoded at all.
public struct OSMElementKinds: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Nodes, plain and dense.
    public static let nodes = OSMElementKinds(rawValue: 1)
    /// Ways.
    public static let ways = OSMElementKinds(rawValue: 2)
    /// Relations.
    public static let relations = OSMElementKinds(rawValue: 4)
    /// Every kind.
    public static let all: OSMElementKinds = [.nodes, .ways, .relations]
}
