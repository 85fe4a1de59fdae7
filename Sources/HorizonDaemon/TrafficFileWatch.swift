import Foundation

/// Watches the traffic feed file of `[traffic] feed`: every check interval it reads the file and
/// reports its bytes when they differ from those last handled (a scripted or downloaded feed
/// replaced on disk), or a read failure once per episode.
struct TrafficFileWatch {
    /// What a check found.
    enum Finding: Equatable {
        /// New bytes to hand to the core.
        case changed(Data)
        /// The file cannot be read (the first check of an episode of failures).
        case unreadable(String)
    }

    private var nextCheck = -Double.infinity
    private var handled: Data?
    private var failing = false

    /// Reads `path` when a check is due at monotonic time `now` (every `interval` seconds).
    mutating func check(_ path: String, interval: Double, at now: Double) -> Finding? {
        guard now >= nextCheck else { return nil }
        nextCheck = now + interval
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            defer { failing = true }
            return failing ? nil : .unreadable("cannot read \(path): \(error.localizedDescription)")
        }
        failing = false
        return data == handled ? nil : .changed(data)
    }

    /// The bytes of the last finding were handled by the core (taken or refused): they are not
    /// offered again until the file changes.
    mutating func markHandled(_ data: Data) { handled = data }
}
