import Foundation
import RoadMap

/// Lanes per direction from `lanes`, `lanes:forward` and `lanes:backward`.
///
/// Explicit per-direction counts win. Otherwise a one-way road has all `lanes` in its travel
/// direction, and a two-way road with an even `lanes` splits them evenly; an odd total on a
/// two-way road (e.g. a centre turn lane) leaves the split unknown rather than guessing.
public struct LanesPerDirection: Hashable, Sendable {
    /// Lanes in the way's drawing direction, `nil` when not known.
    public var forward: UInt8?
    /// Lanes against the drawing direction, `nil` when not known.
    public var backward: UInt8?

    /// Reads the lanes of a way with the given one-way setting.
    public init(tags: [String: String], oneway: Oneway) {
        let total = LanesPerDirection.count(tags["lanes"])
        var forward = LanesPerDirection.count(tags["lanes:forward"])
        var backward = LanesPerDirection.count(tags["lanes:backward"])
        switch oneway {
        case .forward:
            forward = forward ?? total
            backward = nil
        case .backward:
            backward = backward ?? total
            forward = nil
        case .no:
            if let total {
                if forward == nil, let backward, backward < total { forward = total - backward }
                if backward == nil, let forward, forward < total { backward = total - forward }
                if forward == nil, backward == nil, total % 2 == 0 {
                    forward = total / 2
                    backward = total / 2
                }
            }
        }
        self.forward = forward
        self.backward = backward
    }

    /// A lane count 1…255, or `nil` when absent or malformed.
    static func count(_ text: String?) -> UInt8? {
        guard let text, let value = UInt8(text.trimmingCharacters(in: .whitespaces)), value > 0 else { return nil }
        return value
    }
}
