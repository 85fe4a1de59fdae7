#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock (CLOCK_MONOTONIC) in seconds: the daemon's only clock. It never jumps
/// with NTP or the user setting the date.
enum MonotonicClock {
    /// Seconds since an arbitrary fixed point (boot).
    static func now() -> Double {
        var stamp = timespec()
        clock_gettime(CLOCK_MONOTONIC, &stamp)
        return Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1_000_000_000
    }
}
