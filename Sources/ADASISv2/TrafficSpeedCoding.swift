/// The traffic speed of a stretch of road as this project's traffic-speed profile carries it
/// (PROFILE SHORT, system-specific 21; `Docs/adasis-conventions.md`).
public enum TrafficSpeed: Hashable, Sendable, CustomStringConvertible {
    /// Traffic moves at this speed, km/h (whole km/h on the wire, 0…1020).
    case kilometresPerHour(Double)
    /// The road is closed: no traffic may enter.
    case closed
    /// The traffic layer has no speed for the stretch (or the layer expired).
    case noData

    public var description: String {
        switch self {
        case .kilometresPerHour(let speed): return "\(Int(speed.rounded())) km/h"
        case .closed: return "closed"
        case .noData: return "no data"
        }
    }
}

extension ValueCoding {
    /// The traffic-speed profile's code of a closed road.
    public static let trafficSpeedClosedCode: UInt16 = 1021
    /// The traffic-speed profile's code of a stretch without traffic data.
    public static let trafficSpeedNoDataCode: UInt16 = 1023

    /// Traffic speed → 10-bit code: whole km/h 0…1020 (rounded, clamped), 1021 closed,
    /// 1023 no data (also for a speed that is not a finite number). 1022 is not used.
    public static func trafficSpeedCode(_ speed: TrafficSpeed) -> UInt16 {
        switch speed {
        case .kilometresPerHour(let value):
            guard value.isFinite else { return trafficSpeedNoDataCode }
            return UInt16(min(1020, max(0, value.rounded())))
        case .closed: return trafficSpeedClosedCode
        case .noData: return trafficSpeedNoDataCode
        }
    }

    /// 10-bit code → traffic speed; the unused code 1022 reads as no data.
    public static func trafficSpeed(code: UInt16) -> TrafficSpeed {
        switch code {
        case 0...1020: return .kilometresPerHour(Double(code))
        case trafficSpeedClosedCode: return .closed
        default: return .noData
        }
    }
}
