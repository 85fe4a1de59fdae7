import RoadMap

/// A stretch of a path inside one country and region: the country information element of an
/// electronic horizon (ISO 3166-1 alpha-2/alpha-3 and numeric codes, ISO 3166-2 region code).
public struct CountryStretch: Hashable, Sendable {
    /// Metres from the path start where the stretch begins.
    public var startOffset: Double
    /// Metres from the path start where it ends.
    public var endOffset: Double
    /// The country, `nil` where the map does not know it.
    public var country: Country?
    /// The region (state, Land, …), `nil` where the map has none for the stretch.
    public var region: Region?

    /// Creates a stretch.
    public init(startOffset: Double, endOffset: Double, country: Country?, region: Region?) {
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.country = country
        self.region = region
    }

    /// Whether `offset` lies on the stretch (start included, end excluded).
    public func contains(_ offset: Double) -> Bool { offset >= startOffset && offset < endOffset }
}

/// Turns the per-link country and region codes of a map into countries and regions: a link's
/// region code `r > 0` names the ISO 3166-2 code `regionCodes[r − 1]` (the map's
/// ``MapMetadata/regions``).
public struct PlaceCodes: Hashable, Sendable {
    /// The map's ISO 3166-2 region codes, in the order its links number them.
    public var regionCodes: [String]
    /// The ISO 3166-1 alpha-2 codes of the map's countries (``MapMetadata/countries``); `nil`
    /// when not known (then any country may be on the map).
    public var countryCodes: [String]?

    /// Creates the lookup for a map whose regions are `regionCodes` and countries `countryCodes`.
    public init(regionCodes: [String] = [], countryCodes: [String]? = nil) {
        self.regionCodes = regionCodes
        self.countryCodes = countryCodes
    }

    /// The lookup for `map`.
    public init(map: MapMetadata) {
        regionCodes = map.regions ?? []
        countryCodes = map.countries
    }

    /// Every place a link of the map can lie in, and more: each of the map's countries and the
    /// unknown country, each with no region and with each of the map's regions; `nil` when the
    /// map's countries are not known.
    public var places: [(country: Country?, region: Region?)]? {
        guard let countryCodes else { return nil }
        var countries: [Country?] = [nil]
        for code in countryCodes {
            guard let country = try? Country(alpha2: code) else { return nil }
            countries.append(country)
        }
        let regions: [Region?] = [nil] + regionCodes.map { try? Region(code: $0) }
        return countries.flatMap { country in regions.map { (country, $0) } }
    }

    /// The country of numeric code `code`, `nil` for 0 or an unknown code.
    public func country(_ code: UInt16) -> Country? { code == 0 ? nil : try? Country(numericCode: code) }

    /// The region of link region code `code`, `nil` for 0 or a code outside the map's list.
    public func region(_ code: UInt16) -> Region? {
        guard code > 0, Int(code) <= regionCodes.count else { return nil }
        return try? Region(code: regionCodes[Int(code) - 1])
    }
}

extension HorizonPath {
    /// The path cut into stretches of one country and region each, in driving order, covering
    /// the path from its first link to its end (consecutive links of the same place merged).
    public func countryStretches(_ places: PlaceCodes) -> [CountryStretch] {
        var result: [CountryStretch] = []
        for link in links {
            let country = places.country(link.attributes.countryCode)
            let region = places.region(link.attributes.regionCode)
            if let last = result.last, last.country == country, last.region == region {
                result[result.count - 1].endOffset = link.endOffset
            } else {
                result.append(
                    CountryStretch(
                        startOffset: link.startOffset, endOffset: link.endOffset, country: country, region: region))
            }
        }
        return result
    }
}
