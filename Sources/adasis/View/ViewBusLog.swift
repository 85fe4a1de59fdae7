import ADASISProvider
import ADASISv2
import Foundation
import MapView

/// What the provider sent up to one moment of the replay, for the view's panel: the last frames
/// decoded, the bus load over the last second and the provider's counters.
struct ViewBusLog: Encodable {
    /// One frame, decoded.
    struct Frame: Encodable {
        var time_s: Double
        var id: String
        var text: String
    }

    /// The last frames sent, newest last.
    var frames: [Frame]
    /// Frames in the last second.
    var frames_last_second: Int
    /// Share of a 500 kbit/s bus those frames take (111 bits per 8-byte classic frame, no stuffing).
    var load_percent: Double
    /// Frames sent so far by message type.
    var sent: [String: Int]
    /// Frames dropped so far (bus budget and sender).
    var dropped: Int
    /// Horizon updates and new main paths so far.
    var updates: Int
    var new_main_paths: Int

    /// Bits on the wire of a classic CAN data frame with an 11-bit identifier and 8 data bytes,
    /// without stuff bits.
    static let bitsPerFrame = 111.0
    /// The bus bitrate the load is given for.
    static let bitrate = 500_000.0

    /// The log at `time` from `frames` (all frames sent so far, by time) and the counters then.
    init(time: Double, frames all: ArraySlice<ProviderFrame>, counters: ProviderCounters, keep: Int = 12) {
        frames = all.suffix(keep).map { frame in
            Frame(
                time_s: (frame.time * 1000).rounded() / 1000,
                id: String(format: "0x%03X", frame.identifier), text: Self.describe(frame))
        }
        frames_last_second = all.reversed().prefix { $0.time > time - 1 + 1e-9 }.count
        load_percent = (Double(frames_last_second) * Self.bitsPerFrame / Self.bitrate * 1000).rounded() / 10
        sent = Dictionary(uniqueKeysWithValues: counters.framesSent.map { ("\($0.key)", $0.value) })
        dropped =
            counters.framesDroppedByBudget.values.reduce(0, +) + counters.framesDroppedBySender.values.reduce(0, +)
        updates = counters.updates
        new_main_paths = counters.newMainPaths
    }

    /// `TYPE Field=value …`, as `adasis decode` prints a frame (raw field values).
    static func describe(_ frame: ProviderFrame) -> String { FrameText.describe(frame.data) }
}
