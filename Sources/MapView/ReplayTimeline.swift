import Foundation

/// The horizon of every fix of a replayed drive, computed once before serving: what the view
/// shows at replay time t is the frame of the last fix at or before t.
public struct ReplayTimeline: Sendable {
    /// One fix's horizon.
    public struct Frame: Sendable {
        /// Seconds from the drive's start.
        public var time: Double
        /// The fix, longitude and latitude.
        public var longitude: Double
        public var latitude: Double
        /// The JSON document served for this fix (`/horizon.json`).
        public var document: Data

        /// A frame.
        public init(time: Double, longitude: Double, latitude: Double, document: Data) {
            self.time = time
            self.longitude = longitude
            self.latitude = latitude
            self.document = document
        }
    }

    /// The frames, by time.
    public let frames: [Frame]

    /// A timeline of `frames` (sorted by time here).
    public init(frames: [Frame]) { self.frames = frames.sorted { $0.time < $1.time } }

    /// The frame shown at `time`: the last one at or before it (the first before the drive starts);
    /// `nil` after the last fix or for an empty timeline.
    public func frame(at time: Double) -> Frame? {
        guard let first = frames.first, let last = frames.last, time <= last.time + 1e-6 else { return nil }
        guard time > first.time else { return first }
        var low = 0
        var high = frames.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if frames[middle].time <= time + 1e-6 { low = middle } else { high = middle - 1 }
        }
        return frames[low]
    }

    /// `{"start_s", "end_s", "times", "fixes": [[lon, lat], …]}`: what the page's slider and the
    /// vehicle marker need.
    public func summary() throws -> Data {
        struct Summary: Encodable {
            var start_s: Double
            var end_s: Double
            var times: [Double]
            var fixes: [[Double]]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(
            Summary(
                start_s: frames.first?.time ?? 0, end_s: frames.last?.time ?? 0, times: frames.map(\.time),
                fixes: frames.map { [$0.longitude, $0.latitude] }))
    }
}
