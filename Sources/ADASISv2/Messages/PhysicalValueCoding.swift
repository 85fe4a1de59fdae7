import Foundation

/// Physical value ↔ raw code conversions of the message fields (the value tables
/// of `Tools/adasis-v2.dbc`; this project's choices in `Docs/adasis-conventions.md`).
/// Quantities whose code saturates ("≥", "≤", "older than") clamp to the end codes; non-finite
/// input gives the field's invalid/N/A code. Decoders return `nil` for unknown, invalid and N/A.
extension ValueCoding {
    /// Kilometres in one statute mile.
    static let kilometresPerMile = 1.609344

    // MARK: Speed limit with units

    /// Speed limit in km/h → EffectiveSpeedLimit code in `units` (converted to mph when the
    /// META-DATA says mph). `nil` → 0 (unknown), `.infinity` → 30 (unlimited).
    public static func speedLimitCode(kilometresPerHour: Double?, units: SpeedUnits) -> UInt8 {
        guard let kilometresPerHour else { return speedLimitCode(nil) }
        switch units {
        case .kilometresPerHour:
            return speedLimitCode(kilometresPerHour)
        case .milesPerHour:
            guard kilometresPerHour.isFinite else { return speedLimitCode(kilometresPerHour) }
            // Rounded to a millimetre per hour so 30 mph = 48.28032 km/h codes as ≤ 30 mph.
            return speedLimitCode((kilometresPerHour / kilometresPerMile * 1e6).rounded() / 1e6)
        }
    }

    /// EffectiveSpeedLimit code in `units` → its upper bound in km/h; `nil` for unknown and N/A,
    /// `.infinity` for unlimited and above-150.
    public static func speedLimitKilometresPerHour(code: UInt8, units: SpeedUnits) -> Double? {
        guard let limit = speedLimit(code: code) else { return nil }
        return units == .kilometresPerHour || !limit.isFinite ? limit : limit * kilometresPerMile
    }

    // MARK: Probability

    /// Probability in percent → 5-bit code (raw × 100/30 %), clamped to the valid codes 1…30;
    /// non-finite → 31 (N/A).
    public static func probabilityCode(percent: Double) -> UInt8 {
        guard percent.isFinite else { return 31 }
        return UInt8(min(30, max(1, (percent * 30 / 100).rounded())))
    }

    /// 5-bit probability code → percent; `nil` for 0 (unknown) and 31 (N/A).
    public static func probabilityPercent(code: UInt8) -> Double? {
        (1...30).contains(code) ? Double(code) * 100 / 30 : nil
    }

    // MARK: Position age

    /// Age of the position in ms → 9-bit PositionAge code (raw × 5 ms): 510 when older than 2545 ms,
    /// 511 (invalid) for negative or non-finite ages.
    public static func positionAgeCode(milliseconds: Double) -> UInt16 {
        guard milliseconds.isFinite, milliseconds >= 0 else { return 511 }
        if milliseconds > 2545 { return 510 }
        return UInt16(min(509, (milliseconds / 5).rounded()))
    }

    /// PositionAge code → milliseconds; `.infinity` for 510 (older than 2545 ms), `nil` for 511.
    public static func positionAgeMilliseconds(code: UInt16) -> Double? {
        switch code {
        case 0...509: Double(code) * 5
        case 510: .infinity
        default: nil
        }
    }

    // MARK: Speed

    /// Vehicle speed in m/s → 9-bit Speed code (raw × 0.2 − 12.8 m/s), clamped to 0…510
    /// (64 = standing still); non-finite → 511 (invalid).
    public static func speedCode(metresPerSecond: Double) -> UInt16 {
        guard metresPerSecond.isFinite else { return 511 }
        return UInt16(min(510, max(0, ((metresPerSecond + 12.8) * 5).rounded())))
    }

    /// Speed code → m/s (0 means ≤ −12.8, 510 means ≥ 89.2); `nil` for 511 (invalid).
    public static func speed(code: UInt16) -> Double? {
        code <= 510 ? Double(Int(code) - 64) / 5 : nil
    }

    // MARK: Angles

    /// Angle in degrees clockwise from the path direction → 8-bit RelativeHeading / TurnAngle code
    /// (raw × 360/254 °): 0 straight on, 127 opposite; non-finite → 254 (unknown).
    public static func angleCode(degrees: Double) -> UInt8 {
        guard degrees.isFinite else { return 254 }
        let normalised = degrees.truncatingRemainder(dividingBy: 360)
        let positive = normalised < 0 ? normalised + 360 : normalised
        return UInt8(Int((positive * 254 / 360).rounded()) % 254)
    }

    /// RelativeHeading / TurnAngle code → degrees clockwise in 0 ..< 360 (right turns below 180,
    /// left turns above); `nil` for 254 (unknown) and 255 (invalid).
    public static func angleDegrees(code: UInt8) -> Double? {
        code < 254 ? Double(code) * 360 / 254 : nil
    }

    // MARK: Slope

    /// The steepest slope reported as a number, percent: 100 % is 45°. Past it a slope is reported
    /// as ±∞ (as HERE does), on the end codes 0 (−∞) and 1022 (+∞).
    public static let steepestFiniteSlopePercent = 100.0

    /// Slope in percent (positive uphill in path direction) → 10-bit code (raw × 0.1 − 51.1 %).
    ///
    /// Codes 1…1021 carry −51.0…+51.0 % in 0.1 % steps (511 level); slopes steeper than ±51.0 %
    /// up to 45° (±100 %) clamp to 1 / 1021. Past 45° (and ±∞ itself) the slope is ±∞: code 0
    /// downhill, 1022 uphill. NaN → 1023 (unknown).
    public static func slopeCode(percent: Double) -> UInt16 {
        if percent.isNaN { return 1023 }
        if percent > steepestFiniteSlopePercent { return 1022 }
        if percent < -steepestFiniteSlopePercent { return 0 }
        return UInt16(min(1021, max(1, (percent * 10).rounded() + 511)))
    }

    /// Slope code → percent: −∞ for 0 and +∞ for 1022 (steeper than 45°); `nil` for 1023 (unknown).
    public static func slopePercent(code: UInt16) -> Double? {
        switch code {
        case 0: -.infinity
        case 1...1021: Double(Int(code) - 511) / 10
        case 1022: .infinity
        default: nil
        }
    }

    // MARK: Longitude and latitude

    /// Longitude in degrees → PROFILE LONG value (raw × 1e-7 − 180 °); 0xFFFFFFFF (N/A) outside
    /// −180…180 or non-finite.
    public static func longitudeCode(degrees: Double) -> UInt32 {
        coordinateCode(degrees, bound: 180)
    }

    /// PROFILE LONG longitude value → degrees; `nil` for values beyond 180 ° (0xFFFFFFFF = N/A).
    public static func longitudeDegrees(code: UInt32) -> Double? {
        coordinateDegrees(code, bound: 180)
    }

    /// Latitude in degrees → PROFILE LONG value (raw × 1e-7 − 90 °); 0xFFFFFFFF (N/A) outside
    /// −90…90 or non-finite.
    public static func latitudeCode(degrees: Double) -> UInt32 {
        coordinateCode(degrees, bound: 90)
    }

    /// PROFILE LONG latitude value → degrees; `nil` for values beyond 90 ° (0xFFFFFFFF = N/A).
    public static func latitudeDegrees(code: UInt32) -> Double? {
        coordinateDegrees(code, bound: 90)
    }

    private static func coordinateCode(_ degrees: Double, bound: Double) -> UInt32 {
        guard degrees.isFinite, abs(degrees) <= bound else { return .max }
        return UInt32(((degrees + bound) * 1e7).rounded())
    }

    private static func coordinateDegrees(_ code: UInt32, bound: Double) -> Double? {
        let degrees = Double(code) / 1e7 - bound
        return degrees <= bound ? degrees : nil
    }

    // MARK: Map version

    /// Calendar year → 6-bit MapVersionYear code (year − 2000); 63 (N/A) outside 2000…2062.
    public static func mapVersionYearCode(year: Int) -> UInt8 {
        (2000...2062).contains(year) ? UInt8(year - 2000) : 63
    }

    /// MapVersionYear code → calendar year; `nil` for 63 (N/A).
    public static func mapVersionYear(code: UInt8) -> Int? {
        code < 63 ? 2000 + Int(code) : nil
    }
}
