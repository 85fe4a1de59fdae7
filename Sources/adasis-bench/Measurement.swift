import Foundation
import GNSSSources

/// Latency samples with percentiles.
struct Samples {
    private(set) var values: [Double] = []

    /// No samples yet.
    init() {}

    /// Samples with these values.
    init(_ values: [Double]) { self.values = values }

    mutating func add(_ value: Double) { values.append(value) }

    /// Times `body` and records its duration in seconds.
    mutating func time<T>(_ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now()
        let result = try body()
        values.append(MonotonicClock.now() - start)
        return result
    }

    /// The `p`-th percentile (nearest rank), 0 when empty.
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The largest sample, 0 when empty.
    var maximum: Double { values.max() ?? 0 }

    /// "p50 X unit, p99 Y unit (n N)" with values scaled by `scale`.
    func summary(scale: Double, unit: String) -> String {
        String(
            format: "p50 %.2f %@, p99 %.2f %@ (n %d)", percentile(50) * scale, unit, percentile(99) * scale, unit,
            values.count)
    }
}

/// CPU time the calling thread has used, in seconds (`CLOCK_THREAD_CPUTIME_ID`): unlike the
/// monotonic clock it does not run while the thread waits for a core, so its percentiles show
/// the code's own cost on a shared, loaded machine.
enum ThreadClock {
    static func now() -> Double {
        var stamp = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &stamp)
        return Double(stamp.tv_sec) + Double(stamp.tv_nsec) / 1_000_000_000
    }
}

/// A seeded generator so every benchmark run queries the same points.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The allocator serving `malloc` in this process, as the dynamic linker resolved it: "TCMalloc"
/// when the executable was linked with it (Package.swift, `allocator`) or it was preloaded,
/// otherwise "glibc malloc". Printed with every figure, so that a measurement says what it ran on.
func allocatorName() -> String {
    let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
    guard let malloc = dlsym(everywhere, "malloc") else { return "unknown" }
    if let tcmalloc = dlsym(everywhere, "tc_malloc"), tcmalloc == malloc { return "TCMalloc" }
    return "glibc malloc"
}

/// Peak resident memory of this process, MiB.
func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}
