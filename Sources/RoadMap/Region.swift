/// Why a region code was rejected.
public enum RegionError: Error, Hashable, Sendable {
    /// `code` is not of the ISO 3166-2 form `CC-XXX` (a known alpha-2 country code, a hyphen and a
    /// subdivision part of one to three letters or digits).
    case malformedCode(String)
}

/// A country subdivision (state, Land, province) by its ISO 3166-2 code, e.g. `US-CA`, `DE-BY`,
/// `AT-5`, with a stable 15-bit code for ADASIS META-DATA's RegionCode.
///
/// The wire code is the subdivision part (after the hyphen) alone; the country travels in
/// CountryCode. With `v(c)` = 0…9 for digits and 10…35 for letters:
/// one character → `1 + v`; two → `37 + 36·v₁ + v₂`; three starting with two digits (`FR-20R`)
/// → `1333 + 36·(10·d₁ + d₂) + v₃`; three starting with two letters (`GB-ENG`, `NL-BQ1`)
/// → `4933 + 36·(26·l₁ + l₂) + v₃`. So codes run 1…29268 (0 unknown, 32767 N/A) and every
/// subdivision of the ISO 3166-2 list has one, without a table.
public struct Region: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The country the region belongs to.
    public let country: Country
    /// The subdivision part of the code, upper case (`CA` of `US-CA`).
    public let subdivision: String

    /// The region for an ISO 3166-2 code (case-insensitive), e.g. `Region(code: "DE-BY")`.
    public init(code: String) throws(RegionError) {
        let upper = code.uppercased()
        let parts = upper.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let country = try? Country(alpha2: String(parts[0])),
            Region.wireCode(subdivision: Substring(parts[1])) != nil
        else { throw .malformedCode(code) }
        self.country = country
        subdivision = String(parts[1])
    }

    /// The region of `country` whose META-DATA RegionCode is `wireCode`; `nil` for 0, 32767 or a
    /// code no subdivision part maps to.
    public init?(country: Country, wireCode: UInt16) {
        guard let subdivision = Region.subdivision(wireCode: wireCode) else { return nil }
        self.country = country
        self.subdivision = subdivision
    }

    /// The ISO 3166-2 code, e.g. `DE-BY`.
    public var code: String { "\(country.alpha2)-\(subdivision)" }
    public var description: String { code }

    /// The 15-bit META-DATA RegionCode (see the type's documentation).
    public var wireCode: UInt16 { Region.wireCode(subdivision: Substring(subdivision))! }

    private static func value(_ character: Character) -> Int? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(ascii - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(ascii - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    private static func character(_ value: Int) -> Character {
        Character(UnicodeScalar(UInt8(value < 10 ? 48 + value : 55 + value)))
    }

    static func wireCode(subdivision: Substring) -> UInt16? {
        let values = subdivision.compactMap(value)
        guard values.count == subdivision.count else { return nil }
        switch values.count {
        case 1: return UInt16(1 + values[0])
        case 2: return UInt16(37 + 36 * values[0] + values[1])
        case 3 where values[0] < 10 && values[1] < 10:
            return UInt16(1333 + 36 * (10 * values[0] + values[1]) + values[2])
        case 3 where values[0] >= 10 && values[1] >= 10:
            return UInt16(4933 + 36 * (26 * (values[0] - 10) + values[1] - 10) + values[2])
        default: return nil
        }
    }

    static func subdivision(wireCode code: UInt16) -> String? {
        let code = Int(code)
        switch code {
        case 1...36: return String(character(code - 1))
        case 37...1332: return String([character((code - 37) / 36), character((code - 37) % 36)])
        case 1333...4932:
            let pair = (code - 1333) / 36
            return String([character(pair / 10), character(pair % 10), character((code - 1333) % 36)])
        case 4933...29268:
            let pair = (code - 4933) / 36
            return String([character(10 + pair / 26), character(10 + pair % 26), character((code - 4933) % 36)])
        default: return nil
        }
    }
}
