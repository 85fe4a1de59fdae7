/// A built road graph, ready to be written into a map: links with identifiers assigned, turn
/// restrictions, and the report.
public struct RoadGraph: Sendable {
    /// All links, sorted by identifier.
    public var links: [RoadLink]
    /// Turn restrictions between those links.
    public var restrictions: [TurnRestriction]
    /// ISO 3166-1 alpha-2 codes of the countries the links lie in, sorted.
    public var countries: [String] = []
    /// ISO 3166-2 codes of the regions found from complete boundaries; a link's region code is
    /// its index here plus one (0 = unknown).
    public var regions: [String] = []
    /// What was kept, cut and skipped.
    public var report: ImportReport

    /// Creates a graph from its links, restrictions, countries and regions, and the report.
    public init(
        links: [RoadLink], restrictions: [TurnRestriction], countries: [String] = [], regions: [String] = [],
        report: ImportReport
    ) {
        self.links = links
        self.restrictions = restrictions
        self.countries = countries
        self.regions = regions
        self.report = report
    }
}
