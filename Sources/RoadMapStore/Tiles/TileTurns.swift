import RoadMap

/// The legal successors of a tile's links (``RoadTurns``), both directions of each link, in the
/// order of the tile's links: what ``MapFile/successors(of:)`` returns, read from one list.
public struct TileTurns: Hashable, Sendable {
    /// Where the successors of directed link `2 i + d` (link `i` of the tile, direction `d`:
    /// 0 forward, 1 backward) begin in ``successors``; one more entry ends the last.
    public var starts: [Int32]
    /// The successors, list after list.
    public var successors: [DirectedLink]

    /// No turns (a tile without links).
    public init() {
        starts = [0]
        successors = []
    }

    /// Lists already laid out: `starts` begins with 0, ascends and ends at `successors.count`,
    /// with an even number of lists (the decoder's).
    init(starts: [Int32], successors: [DirectedLink]) {
        self.starts = starts
        self.successors = successors
    }

    /// Appends the successors of the tile's next link, forward then backward.
    public mutating func append(forward: [DirectedLink], backward: [DirectedLink]) {
        successors += forward
        starts.append(Int32(successors.count))
        successors += backward
        starts.append(Int32(successors.count))
    }

    /// The links whose successors are held.
    public var linkCount: Int { (starts.count - 1) / 2 }

    /// The successors of the tile's link at `index` driven in `direction`.
    public func successors(ofLinkAt index: Int, _ direction: LinkDirection) -> ArraySlice<DirectedLink> {
        let list = 2 * index + Int(direction.rawValue)
        return successors[Int(starts[list])..<Int(starts[list + 1])]
    }
}
