import RoadMap

/// A way's node list reduced to the nodes present in the extract.
///
/// Bounding-box extracts keep ways that cross the box but drop their nodes outside it. The
/// importer keeps the longest run of consecutive present nodes and counts what it cut.
public struct ClippedWay: Hashable, Sendable {
    /// The kept node ids: the longest run of consecutive nodes that are present (first run wins
    /// a tie). Empty when fewer than two consecutive nodes are present.
    public var nodeIDs: [Int64]
    /// How many of the way's node references were dropped.
    public var droppedNodeCount: Int

    /// Whether anything was cut.
    public var wasClipped: Bool { droppedNodeCount > 0 }

    /// Clips `nodeIDs` to the nodes for which `isPresent` is true.
    public init(nodeIDs: [Int64], isPresent: (Int64) -> Bool) {
        var bestStart = 0, bestLength = 0
        var runStart = 0, runLength = 0
        for (index, id) in nodeIDs.enumerated() {
            if isPresent(id) {
                if runLength == 0 { runStart = index }
                runLength += 1
                if runLength > bestLength {
                    bestStart = runStart
                    bestLength = runLength
                }
            } else {
                runLength = 0
            }
        }
        let kept = bestLength >= 2 ? Array(nodeIDs[bestStart..<(bestStart + bestLength)]) : []
        self.nodeIDs = kept
        self.droppedNodeCount = nodeIDs.count - kept.count
    }
}
