#if canImport(Glibc)
    import Glibc
#endif

/// The monotonic clock (`CLOCK_MONOTONIC`) in seconds, and the one way to block a thread for a
/// while: the only clock the daemon and the commands read. It never jumps with NTP or the user
/// setting the date.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point (boot), from `clock_gettime(CLOCK_MONOTONIC)`.
    public static func now() -> Double {
        var stamp = timespec()
        clock_gettime(CLOCK_MONOTONIC, &stamp)
        return Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1_000_000_000
    }

    /// Blocks the calling thread for `duration` with `nanosleep`, resumed after signals so the
    /// whole duration passes; zero or negative durations return at once.
    public static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// Blocks the calling thread for `seconds` (fractions allowed); see ``sleep(_:)``.
    public static func sleep(seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        sleep(.nanoseconds(Int64(seconds * 1_000_000_000)))
    }
}
