import Foundation

/// Physical value ↔ raw code conversions of the ADASIS v2 fields (the value tables of
/// `Tools/adasis-v2.dbc`; this project's choices in `Docs/adasis-conventions.md`).
public enum ValueCoding {
    /// Curvature band boundaries |c| (1/m), divisor and offset of the code formula (§4).
    private static let curvatureBands: [(limit: Double, divisor: Double, offset: Double)] = [
        (0.00064, 1, 0), (0.00192, 2, 32), (0.00448, 4, 80), (0.00960, 8, 136),
        (0.01984, 16, 196), (0.04032, 32, 258), (0.08128, 64, 321), (0.16192, 128, 384.5),
    ]

    /// Curvature (1/m, positive = right-hand curve) → 10-bit code: 511 straight, 0 / 1022 beyond
    /// the last band, 1023 for a non-finite input.
    public static func curvatureCode(_ curvature: Double) -> UInt16 {
        guard curvature.isFinite else { return 1023 }
        let magnitude = abs(curvature)
        let sign: Double = curvature < 0 ? -1 : 1
        for band in curvatureBands where magnitude < band.limit {
            let code = 511 + (curvature * 1e5 / band.divisor + band.offset * sign).rounded()
            return UInt16(max(0, min(1022, code)))
        }
        return curvature < 0 ? 0 : 1022
    }

    /// 10-bit code → curvature (1/m), inverting the band of the code; `nil` for 1023 (invalid).
    public static func curvature(code: UInt16) -> Double? {
        guard code < 1023 else { return nil }
        let delta = Double(code) - 511
        if delta == 0 { return 0 }
        let sign: Double = delta < 0 ? -1 : 1
        // Find the band whose code range contains the code.
        // curvatureBands is a constant, non-empty table.
        var best: Double = sign * curvatureBands.last!.limit
        for band in curvatureBands {
            let value = (delta - band.offset * sign) * band.divisor / 1e5
            if abs(value) < band.limit, curvatureCode(value) == code {
                best = value
                break
            }
        }
        return best
    }

    /// Speed limit in the unit of META-DATA → 5-bit EffectiveSpeedLimit code (§3):
    /// `nil` unknown → 0, `.infinity` unlimited → 30.
    public static func speedLimitCode(_ limit: Double?) -> UInt8 {
        guard let limit, !limit.isNaN else { return 0 }
        if limit == .infinity { return 30 }
        if limit <= 5 { return 1 }
        if limit <= 7 { return 2 }
        if limit <= 10 { return 3 }
        if limit <= 120 { return UInt8(max(4, Int((limit / 5).rounded(.up)) + 1)) }
        if limit <= 130 { return 26 }
        if limit <= 140 { return 27 }
        if limit <= 150 { return 28 }
        return 29
    }

    /// EffectiveSpeedLimit code → the upper bound it stands for; `nil` for unknown (0) and N/A (31),
    /// `.infinity` for unlimited (30) and for "above 150" (29).
    public static func speedLimit(code: UInt8) -> Double? {
        switch code {
        case 0, 31...: return nil
        case 1: return 5
        case 2: return 7
        case 3: return 10
        case 4...25: return Double(5 * (Int(code) - 1))
        case 26: return 130
        case 27: return 140
        case 28: return 150
        default: return .infinity
        }
    }
}
