/// What a map file says about itself (the `metadata` table).
public struct MapMetadata: Hashable, Sendable, Codable {
    /// The map container format this code writes; readers refuse newer and older ones
    /// (2: road objects — toll booths, border controls, level crossings, zones — in the tiles;
    /// 3: the longest way on from each directed link that ends within 1 km, ``LongestWaysOn``;
    /// 4: the legal successors of every link, ``RoadTurns``; 5: the index of the links holding a
    /// safety location, per tile they lie in or cross, table `safety_links`).
    public static let currentFormatVersion = 5
    /// The value of the `format` key that marks an adasis map.
    public static let formatName = "adasis-map"

    /// Container format version.
    public var formatVersion: Int
    /// File name of the OSM extract the map was built from.
    public var sourceFile: String
    /// Timestamp of the OSM data (replication timestamp of the extract, Unix seconds), when known.
    public var sourceTimestamp: Int64?
    /// Map version as year and quarter of the data (`2019`, `2`), when known.
    public var mapVersionYear: Int?
    /// Quarter 1–4 of ``mapVersionYear``.
    public var mapVersionQuarter: Int?
    /// ISO 3166-1 alpha-2 codes of the countries in the map.
    public var countries: [String]
    /// Links per country, in the order of ``countries``; `nil` in maps written before it was kept.
    public var countryLinkCounts: [Int]?
    /// ISO 3166-2 codes of the regions found from complete boundaries; a link's region code is the
    /// index here plus one (0 = unknown). `nil` in maps without region boundaries.
    public var regions: [String]?
    /// Links per region, in the order of ``regions``; `nil` when ``regions`` is.
    public var regionLinkCounts: [Int]?
    /// Bounding box of all link geometry: south, west, north, east (degrees).
    public var boundingBox: [Double]
    /// What the import kept, cut and skipped.
    public var importReport: ImportReport

    /// Creates metadata; the map version is derived from `sourceTimestamp`. Link counts, when
    /// given, are in the order of `countries` and `regions`.
    public init(
        sourceFile: String, sourceTimestamp: Int64?, countries: [String], countryLinkCounts: [Int]? = nil,
        regions: [String]? = nil, regionLinkCounts: [Int]? = nil, boundingBox: [Double],
        importReport: ImportReport, formatVersion: Int = MapMetadata.currentFormatVersion
    ) {
        self.formatVersion = formatVersion
        self.sourceFile = sourceFile
        self.sourceTimestamp = sourceTimestamp
        self.countries = countries
        self.countryLinkCounts = countryLinkCounts
        self.regions = regions?.isEmpty == true ? nil : regions
        self.regionLinkCounts = self.regions == nil ? nil : regionLinkCounts
        self.boundingBox = boundingBox
        self.importReport = importReport
        if let sourceTimestamp {
            let (year, month) = MapMetadata.yearMonth(unixSeconds: sourceTimestamp)
            mapVersionYear = year
            mapVersionQuarter = (month - 1) / 3 + 1
        }
    }

    /// Civil year and month of a Unix time (UTC), without Foundation's calendars.
    static func yearMonth(unixSeconds: Int64) -> (year: Int, month: Int) {
        let days = Int(unixSeconds / 86_400) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month)
    }
}
