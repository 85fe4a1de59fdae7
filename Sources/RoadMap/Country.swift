/// Why a country code was rejected.
public enum CountryError: Error, Hashable, Sendable {
    /// `code` is not an ISO 3166-1 alpha-2 code (e.g. `FI`, `DE`, `GB`).
    case unknownCode(String)
    /// `code` is not an ISO 3166-1 numeric code (e.g. 246, 276).
    case unknownNumericCode(UInt16)
}

/// Which side of the road traffic drives on.
public enum DrivingSide: UInt8, Hashable, Sendable, Codable {
    /// Right-hand traffic (most countries).
    case right
    /// Left-hand traffic (e.g. GB, JP, AU, IN).
    case left
}

/// The unit speed limits are signed in.
public enum SpeedUnit: UInt8, Hashable, Sendable, Codable {
    /// Kilometres per hour.
    case kilometresPerHour
    /// Miles per hour (e.g. US, GB).
    case milesPerHour
}

/// A country by ISO 3166-1 code, with its numeric code (stored per link and sent in ADASIS
/// META-DATA), driving side and speed unit.
public struct Country: Hashable, Sendable, Codable {
    /// The alpha-2 code, upper case (e.g. `FI`).
    public let alpha2: String
    /// The numeric code (e.g. 246 for Finland).
    public let numericCode: UInt16

    /// The country for an alpha-2 code (case-insensitive), e.g. `Country(alpha2: "FI")`.
    public init(alpha2 code: String) throws(CountryError) {
        let upper = code.uppercased()
        guard let numeric = Country.numericCodesByAlpha2[upper] else { throw .unknownCode(code) }
        alpha2 = upper
        numericCode = numeric
    }

    /// The country with ISO 3166-1 numeric code `code` (as stored per link and sent in META-DATA).
    public init(numericCode code: UInt16) throws(CountryError) {
        guard let alpha2 = Country.alpha2ByNumericCode[code] else { throw .unknownNumericCode(code) }
        self.alpha2 = alpha2
        numericCode = code
    }

    /// The alpha-3 code, upper case (e.g. `FIN`, `DEU`).
    public var alpha3: String { Country.alpha3CodesByAlpha2[alpha2] ?? alpha2 }

    /// Numeric code → alpha-2 code, the inverse of ``numericCodesByAlpha2``.
    static let alpha2ByNumericCode: [UInt16: String] = Dictionary(
        uniqueKeysWithValues: numericCodesByAlpha2.map { ($0.value, $0.key) })

    /// Which side traffic drives on.
    public var drivingSide: DrivingSide {
        Country.leftHandTraffic.contains(alpha2) ? .left : .right
    }

    /// The unit of speed limit signs.
    public var speedUnit: SpeedUnit {
        Country.milesPerHour.contains(alpha2) ? .milesPerHour : .kilometresPerHour
    }

    /// Countries and territories with left-hand traffic.
    static let leftHandTraffic: Set<String> = [
        "AG", "AI", "AU", "BB", "BD", "BM", "BN", "BS", "BT", "BW", "CC", "CK", "CX", "CY", "DM",
        "FJ", "FK", "GB", "GD", "GG", "GY", "HK", "ID", "IE", "IM", "IN", "JE", "JM", "JP", "KE",
        "KI", "KN", "KY", "LC", "LK", "LS", "MO", "MS", "MT", "MU", "MV", "MW", "MY", "MZ", "NA",
        "NF", "NP", "NR", "NU", "NZ", "PG", "PK", "PN", "SB", "SC", "SG", "SH", "SR", "SZ", "TC",
        "TH", "TK", "TL", "TO", "TT", "TV", "TZ", "UG", "VC", "VG", "VI", "WS", "ZA", "ZM", "ZW",
    ]

    /// Countries and territories whose speed signs are in miles per hour.
    static let milesPerHour: Set<String> = [
        "US", "GB", "LR", "PR", "GU", "AS", "VI", "MP", "GG", "JE", "IM", "FK", "KY", "VG", "BS",
        "AI", "MS", "TC", "AG", "DM", "GD", "KN", "LC", "VC",
    ]
}
