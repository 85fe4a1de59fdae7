/// Why an NMEA 0183 sentence was rejected.
public enum NMEARejection: String, Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Does not start with `$`, has no `*hh` checksum, or holds a character that is not
    /// printable ASCII (line noise: two replaced bytes cancel out in the XOR checksum).
    case notASentence = "not an NMEA sentence"
    /// The checksum after `*` does not match the XOR of the characters between `$` and `*`.
    case checksumMismatch = "checksum mismatch"
    /// Fewer fields than the sentence type requires.
    case tooFewFields = "too few fields"
    /// A numeric field that is not a number, or a time/date that is not valid.
    case badField = "malformed field"
    /// Latitude or longitude outside its range.
    case positionOutOfRange = "position out of range"
    /// A sentence type this parser does not read (GSV, GSA, …). Not an error in the data.
    case unsupportedType = "unsupported sentence type"

    public var description: String { rawValue }
}

/// One decoded NMEA sentence of the kinds map matching needs.
public enum NMEASentence: Hashable, Sendable {
    /// Recommended minimum data (RMC).
    case rmc(RMC)
    /// Fix data (GGA).
    case gga(GGA)
    /// Course and speed over ground (VTG).
    case vtg(VTG)

    /// RMC: time, date, validity, position, speed, course.
    public struct RMC: Hashable, Sendable {
        /// UTC seconds since midnight.
        public var secondsOfDay: Double
        /// Days since 1970-01-01 of the UTC date, `nil` if the date field is empty.
        public var daysSinceEpoch: Int?
        /// Status `A` (valid) or `V` (void).
        public var isValid: Bool
        /// Latitude in degrees, `nil` when empty.
        public var latitude: Double?
        /// Longitude in degrees, `nil` when empty.
        public var longitude: Double?
        /// Speed over ground, metres per second.
        public var speed: Double?
        /// Course over ground, degrees from true north.
        public var course: Double?
    }

    /// GGA: time, position, quality, satellites, HDOP, altitude.
    public struct GGA: Hashable, Sendable {
        /// UTC seconds since midnight.
        public var secondsOfDay: Double
        /// Latitude in degrees, `nil` when empty.
        public var latitude: Double?
        /// Longitude in degrees, `nil` when empty.
        public var longitude: Double?
        /// The GGA fix quality indicator (0 invalid, 1 GPS, 2 DGPS, 4/5 RTK, 6 dead reckoning).
        public var qualityIndicator: Int
        /// Satellites in use.
        public var satellites: Int?
        /// Horizontal dilution of precision.
        public var hdop: Double?
        /// Altitude above mean sea level, metres.
        public var altitude: Double?
    }

    /// VTG: course and speed.
    public struct VTG: Hashable, Sendable {
        /// Course over ground, degrees from true north.
        public var course: Double?
        /// Speed over ground, metres per second.
        public var speed: Double?
    }

    /// Parses one line (with or without trailing CR/LF), verifying its checksum.
    public static func parse(_ line: Substring) -> Result<NMEASentence, NMEARejection> {
        var text = line
        while let last = text.last, last.isNewline || last == " " { text = text.dropLast() }
        guard text.first == "$", let star = text.lastIndex(of: "*") else { return .failure(.notASentence) }
        let body = text[text.index(after: text.startIndex)..<star]
        let checksumText = text[text.index(after: star)...]
        guard checksumText.count == 2, let expected = UInt8(checksumText, radix: 16) else {
            return .failure(.notASentence)
        }
        var sum: UInt8 = 0
        for byte in body.utf8 {
            guard byte >= 0x20 && byte < 0x7F else { return .failure(.notASentence) }
            sum ^= byte
        }
        guard sum == expected else { return .failure(.checksumMismatch) }
        let fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let address = fields.first, address.count == 5 else { return .failure(.notASentence) }
        switch address.suffix(3) {
        case "RMC": return parseRMC(fields)
        case "GGA": return parseGGA(fields)
        case "VTG": return parseVTG(fields)
        default: return .failure(.unsupportedType)
        }
    }

    private static func parseRMC(_ f: [Substring]) -> Result<NMEASentence, NMEARejection> {
        guard f.count >= 10 else { return .failure(.tooFewFields) }
        guard let time = parseTime(f[1]) else { return .failure(.badField) }
        guard f[2] == "A" || f[2] == "V" else { return .failure(.badField) }
        let position: (Double?, Double?)
        switch parsePosition(f[3], f[4], f[5], f[6]) {
        case .success(let p): position = p
        case .failure(let e): return .failure(e)
        }
        guard let speed = optionalNumber(f[7]), let course = optionalNumber(f[8]) else { return .failure(.badField) }
        var days: Int?
        if !f[9].isEmpty {
            guard let d = parseDate(f[9]) else { return .failure(.badField) }
            days = d
        }
        return .success(
            .rmc(
                RMC(
                    secondsOfDay: time, daysSinceEpoch: days, isValid: f[2] == "A",
                    latitude: position.0, longitude: position.1,
                    speed: speed.map { $0 * 1852.0 / 3600.0 }, course: course)))
    }

    private static func parseGGA(_ f: [Substring]) -> Result<NMEASentence, NMEARejection> {
        guard f.count >= 10 else { return .failure(.tooFewFields) }
        guard let time = parseTime(f[1]) else { return .failure(.badField) }
        let position: (Double?, Double?)
        switch parsePosition(f[2], f[3], f[4], f[5]) {
        case .success(let p): position = p
        case .failure(let e): return .failure(e)
        }
        guard let quality = Int(f[6]), let satellites = optionalNumber(f[7]), let hdop = optionalNumber(f[8]),
            let altitude = optionalNumber(f[9])
        else { return .failure(.badField) }
        // A count of satellites: a huge or negative number is a bad field, not a trap converting it.
        if let satellites, !(0...1000).contains(satellites) { return .failure(.badField) }
        return .success(
            .gga(
                GGA(
                    secondsOfDay: time, latitude: position.0, longitude: position.1,
                    qualityIndicator: quality, satellites: satellites.map { Int($0) },
                    hdop: hdop, altitude: altitude)))
    }

    private static func parseVTG(_ f: [Substring]) -> Result<NMEASentence, NMEARejection> {
        // $GPVTG,course,T,magnetic,M,knots,N,kmh,K[,mode]
        guard f.count >= 9 else { return .failure(.tooFewFields) }
        guard let course = optionalNumber(f[1]), let kmh = optionalNumber(f[7]) else { return .failure(.badField) }
        return .success(.vtg(VTG(course: course, speed: kmh.map { $0 / 3.6 })))
    }

    /// `nil` for a malformed number; `.some(nil)` for an empty field.
    private static func optionalNumber(_ field: Substring) -> Double?? {
        if field.isEmpty { return .some(nil) }
        guard let value = Double(field), value.isFinite else { return nil }
        return .some(value)
    }

    private static func parseTime(_ field: Substring) -> Double? {
        guard field.count >= 6, let hh = Int(field.prefix(2)), let mm = Int(field.dropFirst(2).prefix(2)),
            let ss = Double(field.dropFirst(4)), hh < 24, mm < 60, ss >= 0, ss < 61
        else { return nil }
        return Double(hh * 3600 + mm * 60) + ss
    }

    /// ddmmyy → days since 1970-01-01 (years 00–79 → 2000–2079, 80–99 → 1980–1999).
    private static func parseDate(_ field: Substring) -> Int? {
        guard field.count == 6, let dd = Int(field.prefix(2)), let mo = Int(field.dropFirst(2).prefix(2)),
            let yy = Int(field.suffix(2)), (1...12).contains(mo), (1...31).contains(dd)
        else { return nil }
        let year = yy < 80 ? 2000 + yy : 1900 + yy
        return daysFromCivil(year: year, month: mo, day: dd)
    }

    /// Howard Hinnant's days-from-civil algorithm (proleptic Gregorian).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func parsePosition(_ lat: Substring, _ ns: Substring, _ lon: Substring, _ ew: Substring)
        -> Result<(Double?, Double?), NMEARejection>
    {
        if lat.isEmpty && lon.isEmpty { return .success((nil, nil)) }
        guard let latitude = degrees(lat, degreeDigits: 2), let longitude = degrees(lon, degreeDigits: 3),
            ns == "N" || ns == "S", ew == "E" || ew == "W"
        else { return .failure(.badField) }
        let signedLat = ns == "S" ? -latitude : latitude
        let signedLon = ew == "W" ? -longitude : longitude
        guard abs(signedLat) <= 90, abs(signedLon) <= 180 else { return .failure(.positionOutOfRange) }
        return .success((signedLat, signedLon))
    }

    /// `ddmm.mmmm` / `dddmm.mmmm` → degrees.
    private static func degrees(_ field: Substring, degreeDigits: Int) -> Double? {
        guard field.count > degreeDigits + 1, let d = Double(field.prefix(degreeDigits)),
            let m = Double(field.dropFirst(degreeDigits)), m >= 0, m < 60
        else { return nil }
        return d + m / 60
    }
}
