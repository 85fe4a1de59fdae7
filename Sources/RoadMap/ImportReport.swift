/// What an import kept, cut and skipped: printed by `adasis map import` and stored in the map's
/// metadata, so that a user sees what the extract lacked.
public struct ImportReport: Hashable, Sendable, Codable {
    /// OSM nodes read.
    public var nodesRead = 0
    /// OSM ways read.
    public var waysRead = 0
    /// OSM relations read.
    public var relationsRead = 0
    /// Ways kept as roads (selected highway classes, at least two present nodes).
    public var roadWays = 0
    /// Road ways that referenced nodes missing from the extract and were cut to their longest run
    /// of present nodes.
    public var clippedWays = 0
    /// Node references removed by that cutting.
    public var droppedNodeReferences = 0
    /// Road ways dropped because fewer than two of their nodes are in the extract.
    public var waysWithoutGeometry = 0
    /// Tag values that could not be parsed (`maxspeed=fast`, `lanes=two`, …): skipped.
    public var malformedTagValues = 0
    /// Directed links written (one per road section between junctions).
    public var links = 0
    /// Total length of all links, metres.
    public var totalLength = 0.0
    /// Turn restrictions resolved onto links.
    public var turnRestrictions = 0
    /// Turn-restriction relations that could not be used (via-way, members outside the extract,
    /// unknown restriction value).
    public var unusableTurnRestrictions = 0
    /// Safety cameras placed on links.
    public var safetyCameras = 0
    /// Safety cameras farther than the snapping distance from any road: skipped.
    public var unplacedSafetyCameras = 0
    /// Traffic-signal nodes placed on links.
    public var trafficSignals = 0
    /// Average-speed zones placed from their `from` to their `to` member (`nil` in older maps).
    public var averageSpeedZones: Int?
    /// Average-speed zones with no legal drive between their members, kept as a point at `from`.
    public var unroutedZones: Int?
    /// Hazards placed: `hazard=*` road ways (stretches) and road nodes (points) (`nil` in older maps).
    public var hazards: Int?
    /// One-way links paired into dual carriageways.
    public var dualCarriagewayLinks = 0

    /// Links whose slope profile comes from SRTM elevation tiles (`--srtm`), when given.
    public var linksWithElevationSlope: Int?
    /// Links without an OSM `incline` left without slope because an elevation tile or sample was
    /// missing, when `--srtm` was given.
    public var linksWithoutElevation: Int?

    /// Complete administrative boundaries used for countries and regions, when the extract had any.
    public var adminBoundariesUsed: Int?
    /// Administrative boundaries skipped because the extract cuts them.
    public var incompleteAdminBoundaries: Int?
    /// Links no boundary and no `--country` placed in a country.
    public var linksWithoutCountry: Int?

    /// Creates an empty report.
    public init() {}
}
