/// A car in stop-and-go traffic, for the dead-reckoning tests: 2 m/s² up to 14 m/s for 7 s, 10 s at
/// 14 m/s, 2 m/s² down for 7 s, 6 s standing; again every 30 s.
enum StopAndGoTraffic {
    /// The speed at `time` seconds (0 before the drive starts).
    static func speed(at time: Double) -> Double {
        let t = time.truncatingRemainder(dividingBy: 30)
        switch t {
        case ..<0: return 0
        case ..<7: return 2 * t
        case ..<17: return 14
        case ..<24: return 14 - 2 * (t - 17)
        default: return 0
        }
    }
}
