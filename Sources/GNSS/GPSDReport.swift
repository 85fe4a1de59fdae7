#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One JSON object from gpsd's watcher stream (`?WATCH={"enable":true,"json":true}`), one per line.
///
/// Only TPV (time-position-velocity) reports matter for map matching; every other class (SKY,
/// VERSION, DEVICES, DEVICE, WATCH, GST, ERROR, …) decodes to ``ignored(class:)``.
public enum GPSDReport: Hashable, Sendable {
    /// A TPV report.
    case position(Position)
    /// A report of another class, named by its `class` member.
    case ignored(class: String)

    /// The members of a TPV report that become a ``GNSSFix``; absent members are nil.
    public struct Position: Hashable, Sendable {
        /// Fix time, Unix seconds (from the ISO 8601 `time` member).
        public var time: Double?
        /// Latitude in degrees.
        public var latitude: Double?
        /// Longitude in degrees.
        public var longitude: Double?
        /// Altitude above mean sea level in metres (`altMSL`, or the older `alt`).
        public var altitude: Double?
        /// Ground speed in metres per second.
        public var speed: Double?
        /// Course over ground in degrees from true north.
        public var track: Double?
        /// NMEA mode: 0 unknown, 1 no fix, 2 two-dimensional, 3 three-dimensional.
        public var mode: Int
        /// gpsd's fix status: 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead reckoning, 6 GNSS + DR.
        public var status: Int?
        /// Estimated horizontal position error, metres, 95 % confidence (`eph`).
        public var eph: Double?
        /// Estimated longitude error, metres, 95 % confidence (`epx`).
        public var epx: Double?
        /// Estimated latitude error, metres, 95 % confidence (`epy`).
        public var epy: Double?
        /// Estimated speed error, metres per second, 95 % confidence (`eps`).
        public var eps: Double?
        /// Estimated track (course) error, degrees, 95 % confidence (`epd`).
        public var epd: Double?

        /// Creates a position report.
        public init(
            time: Double? = nil, latitude: Double? = nil, longitude: Double? = nil,
            altitude: Double? = nil, speed: Double? = nil, track: Double? = nil, mode: Int,
            status: Int? = nil, eph: Double? = nil, epx: Double? = nil, epy: Double? = nil,
            eps: Double? = nil, epd: Double? = nil
        ) {
            self.time = time
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.speed = speed
            self.track = track
            self.mode = mode
            self.status = status
            self.eph = eph
            self.epx = epx
            self.epy = epy
            self.eps = eps
            self.epd = epd
        }

        /// gpsd's error estimates are 95 % confidence; dividing by this gives one sigma.
        public static let sigmasAt95Percent = 1.96

        /// The one-sigma horizontal accuracy: `eph / 1.96`, else `√(epx² + epy²) / 1.96`, else nil.
        public var horizontalAccuracy: Double? {
            if let eph { return eph / Self.sigmasAt95Percent }
            if let epx, let epy { return (epx * epx + epy * epy).squareRoot() / Self.sigmasAt95Percent }
            return nil
        }

        /// The fix this report describes, or nil when it has none: mode below 2, or no time,
        /// latitude or longitude. Altitude is kept only for a 3-D fix.
        public var fix: GNSSFix? {
            guard mode >= 2, let time, let latitude, let longitude else { return nil }
            let quality: FixQuality
            switch status {
            case 2: quality = .differential
            case 3, 4: quality = .rtk
            case 5, 6: quality = .deadReckoning
            default: quality = mode == 3 ? .fix3D : .fix2D
            }
            return GNSSFix(
                time: time, latitude: latitude, longitude: longitude,
                horizontalAccuracy: horizontalAccuracy, speed: speed, heading: track,
                altitude: mode == 3 ? altitude : nil, quality: quality,
                speedAccuracy: eps.map { $0 / Self.sigmasAt95Percent },
                headingAccuracy: epd.map { $0 / Self.sigmasAt95Percent })
        }
    }

    /// Decodes one line of gpsd output (without its newline).
    /// - Throws: ``GPSDReportError`` when the line is not a JSON object with a `class`, or a TPV
    ///   member has the wrong type or an impossible value.
    public static func decode(_ line: some StringProtocol) throws(GPSDReportError) -> GPSDReport {
        let data = Data(line.utf8)
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw GPSDReportError(kind: .notAReport, line: String(line))
        }
        guard header.class == "TPV" else { return .ignored(class: header.class) }
        let tpv: TPV
        do {
            tpv = try JSONDecoder().decode(TPV.self, from: data)
        } catch {
            throw GPSDReportError(kind: .badMember(Self.memberName(of: error)), line: String(line))
        }
        var time: Double?
        if let text = tpv.time {
            guard let seconds = Self.unixSeconds(iso8601: text) else {
                throw GPSDReportError(kind: .badMember("time"), line: String(line))
            }
            time = seconds
        }
        if let lat = tpv.lat, !(lat.isFinite && abs(lat) <= 90) {
            throw GPSDReportError(kind: .badMember("lat"), line: String(line))
        }
        if let lon = tpv.lon, !(lon.isFinite && abs(lon) <= 180) {
            throw GPSDReportError(kind: .badMember("lon"), line: String(line))
        }
        for (name, error) in [("eps", tpv.eps), ("epd", tpv.epd)] {
            if let error, !(error.isFinite && error >= 0) {
                throw GPSDReportError(kind: .badMember(name), line: String(line))
            }
        }
        return .position(
            Position(
                time: time, latitude: tpv.lat, longitude: tpv.lon,
                altitude: tpv.altMSL ?? tpv.alt, speed: tpv.speed, track: tpv.track,
                mode: tpv.mode ?? 0, status: tpv.status, eph: tpv.eph, epx: tpv.epx,
                epy: tpv.epy, eps: tpv.eps, epd: tpv.epd))
    }

    /// Parses gpsd's UTC time `YYYY-MM-DDTHH:MM:SS[.fff]Z` to Unix seconds; nil if malformed.
    static func unixSeconds(iso8601 text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), bytes[4] == UInt8(ascii: "-"),
            bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            let seconds = Double(String(decoding: bytes[17..<(bytes.count - 1)], as: UTF8.self)),
            seconds >= 0, seconds < 61, bytes[17] != UInt8(ascii: "+")
        else { return nil }
        let days = NMEASentence.daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60) + seconds
    }

    private static func memberName(of error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "?" }
        switch decodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.last?.stringValue ?? "?"
        case .keyNotFound(let key, _):
            return key.stringValue
        @unknown default:
            return "?"
        }
    }

    private struct Header: Decodable {
        var `class`: String
    }

    private struct TPV: Decodable {
        var time: String?
        var lat: Double?
        var lon: Double?
        var altMSL: Double?
        var alt: Double?
        var speed: Double?
        var track: Double?
        var mode: Int?
        var status: Int?
        var eph: Double?
        var epx: Double?
        var epy: Double?
        var eps: Double?
        var epd: Double?
    }
}

/// A line of gpsd output that could not be decoded.
public struct GPSDReportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the line.
    public enum Kind: Hashable, Sendable {
        /// Not a JSON object with a string `class` member (garbage, truncated line, plain text).
        case notAReport
        /// A TPV member has the wrong type or an impossible value; the member's name.
        case badMember(String)
        /// The line exceeded the maximum length and was discarded.
        case lineTooLong
    }

    /// What is wrong.
    public var kind: Kind
    /// The offending line (truncated to 200 characters).
    public var line: String

    /// Creates an error; `line` is truncated to 200 characters.
    public init(kind: Kind, line: String) {
        self.kind = kind
        self.line = String(line.prefix(200))
    }

    /// A one-line message saying what was wrong and that the line was skipped.
    public var description: String {
        switch kind {
        case .notAReport:
            return "gpsd sent a line that is not a JSON report (skipped): \(line)"
        case .badMember(let name):
            return "gpsd TPV report has a bad '\(name)' member (skipped): \(line)"
        case .lineTooLong:
            return "gpsd sent an over-long line (skipped); is the port really gpsd? Starts: \(line)"
        }
    }
}
