import ADASISProvider
import Foundation
import GNSS
import GNSSSources
import Horizon
import RoadMapStore

/// Time from opening a map file to the first horizon frames, with the file out of the page cache.
///
/// Each measurement copies the map to a fresh file, flushes it and asks the kernel to drop its
/// pages (`posix_fadvise(POSIX_FADV_DONTNEED)`), so the open reads the disk as after a reboot
/// (the kernel may ignore the advice for pages still mapped elsewhere; a fresh copy has none).
/// Timed: `MapFile(path:)`, the matcher, the horizon engine and the provider, the first fix's
/// match, horizon update, and the provider's first tick.
enum ColdStart {
    /// One cold open + first horizon at `fix` on a fresh copy of `mapPath`, in seconds; the engine
    /// configured as `horizon` says for the opened map, as the drives' engines are.
    static func openAndFirstHorizon(
        mapPath: String, fix: GNSSFix, configuration: ProviderConfiguration,
        horizon: (MapFile) -> HorizonConfiguration
    ) throws -> Double {
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent("adasis-bench-cold-\(getpid()).map").path
        unlink(copy)
        defer { unlink(copy) }
        try FileManager.default.copyItem(atPath: mapPath, toPath: copy)
        try dropFromPageCache(copy)
        let began = MonotonicClock.now()
        let map = try MapFile(path: copy)
        let matcher = OnlineMapMatcher(network: map)
        let engine = try HorizonEngine(network: map, configuration: horizon(map))
        let adasis = ADASISProvider(configuration: configuration, network: map)
        let match = try matcher.match(fix)
        let events = try engine.update(match)
        adasis.ingest(
            fix: fix, match: match, tree: engine.tree, vehicleOffset: engine.vehicleOffset, events: events,
            routeActive: false)
        _ = adasis.tick(at: fix.time)
        return MonotonicClock.now() - began
    }

    /// Writes `path` to disk and advises the kernel to drop its cached pages.
    private static func dropFromPageCache(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ColdStartError(path: path, operation: "open", code: errno)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ColdStartError(path: path, operation: "fsync", code: errno) }
        let result = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
        guard result == 0 else { throw ColdStartError(path: path, operation: "posix_fadvise", code: result) }
    }
}

/// A system call on the benchmark's fresh map copy failed.
struct ColdStartError: Error, CustomStringConvertible {
    /// The copy's path.
    var path: String
    /// The failing call.
    var operation: String
    /// Its errno.
    var code: Int32

    var description: String {
        "\(operation) on the map copy \(path) failed: \(String(cString: strerror(code))); check the temporary directory"
    }
}
