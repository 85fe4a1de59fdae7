/// Hands out ADASIS path indices 8…63 so that an index is reused only when no receiver can still
/// hold it: a released index rests for a delay before it is handed out again — ``reuseDelay``, or
/// the shorter ``droppedReuseDelay`` when the caller knows the receiver dropped it (a re-root:
/// POSITION named a main path outside that path's subtree, see ``ReceiverTreeModel``).
struct PathIndexAllocator: Sendable {
    static let firstRegular: UInt8 = 8
    static let lastRegular: UInt8 = 63

    private var inUse = PathIndexSet()
    /// When each resting index was released, by index (`nil`: not resting).
    private var resting = [Double?](repeating: nil, count: 64)
    let reuseDelay: Double
    let droppedReuseDelay: Double

    init(reuseDelay: Double, droppedReuseDelay: Double? = nil) {
        self.reuseDelay = reuseDelay
        self.droppedReuseDelay = min(droppedReuseDelay ?? reuseDelay, reuseDelay)
    }

    /// The lowest free index at `time` outside `excluded`, or `nil` when all 56 are taken,
    /// resting or excluded. `receiverHolds`: the indices a receiver may still hold, when known;
    /// a resting index outside it is free after ``droppedReuseDelay``.
    mutating func allocate(
        at time: Double, excluding excluded: PathIndexSet = [], receiverHolds: PathIndexSet? = nil
    ) -> UInt8? {
        guard let index = firstFree(at: time, excluding: excluded, receiverHolds: receiverHolds) else { return nil }
        resting[Int(index)] = nil
        inUse.insert(index)
        return index
    }

    private func firstFree(at time: Double, excluding excluded: PathIndexSet, receiverHolds: PathIndexSet?) -> UInt8? {
        (Self.firstRegular...Self.lastRegular).first {
            isAvailable($0, at: time, excluding: excluded, receiverHolds: receiverHolds)
        }
    }

    /// The highest free index at `time` outside `excluded` (`receiverHolds` as for
    /// ``allocate(at:excluding:receiverHolds:)``).
    func lastFree(at time: Double, excluding excluded: PathIndexSet = [], receiverHolds: PathIndexSet? = nil) -> UInt8?
    {
        (Self.firstRegular...Self.lastRegular).last {
            isAvailable($0, at: time, excluding: excluded, receiverHolds: receiverHolds)
        }
    }

    /// How many indices are free at `time` outside `excluded` (`receiverHolds` as for
    /// ``allocate(at:excluding:receiverHolds:)``).
    func freeCount(at time: Double, excluding excluded: PathIndexSet = [], receiverHolds: PathIndexSet? = nil) -> Int {
        (Self.firstRegular...Self.lastRegular).count {
            isAvailable($0, at: time, excluding: excluded, receiverHolds: receiverHolds)
        }
    }

    /// Whether `index` is free at `time` and outside `excluded`.
    private func isAvailable(
        _ index: UInt8, at time: Double, excluding excluded: PathIndexSet, receiverHolds: PathIndexSet?
    )
        -> Bool
    {
        !excluded.contains(index) && isFree(index, at: time, receiverHolds: receiverHolds)
    }

    private func isFree(_ index: UInt8, at time: Double, receiverHolds: PathIndexSet?) -> Bool {
        guard !inUse.contains(index) else { return false }
        guard let released = resting[Int(index)] else { return true }
        let dropped = receiverHolds.map { !$0.contains(index) } ?? false
        return time - released >= (dropped ? droppedReuseDelay : reuseDelay)
    }

    /// Gives `index` back; it rests until `time + reuseDelay`.
    mutating func release(_ index: UInt8, at time: Double) {
        guard inUse.remove(index) else { return }
        resting[Int(index)] = time
    }

    /// Every index held or still resting, with the time it was (or is considered) released at `time`.
    func unavailable(at time: Double) -> [UInt8: Double] {
        var result: [UInt8: Double] = [:]
        for (index, released) in resting.enumerated() {
            if let released, time - released < reuseDelay { result[UInt8(index)] = released }
        }
        for index in inUse { result[index] = time }
        return result
    }

    /// Marks `index` as released at `time` (resting), unless it is held.
    mutating func rest(_ index: UInt8, since time: Double) {
        guard !inUse.contains(index) else { return }
        resting[Int(index)] = max(resting[Int(index)] ?? -.infinity, time)
    }
}
