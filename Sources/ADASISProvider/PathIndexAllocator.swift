/// Hands out ADASIS path indices 8…63 so that an index is reused only when no receiver can still
/// hold it: a released index rests for a delay before it is handed out again.
struct PathIndexAllocator: Sendable {
    static let firstRegular: UInt8 = 8
    static let lastRegular: UInt8 = 63

    private var inUse = Set<UInt8>()
    private var resting: [UInt8: Double] = [:]
    let reuseDelay: Double

    init(reuseDelay: Double) {
        self.reuseDelay = reuseDelay
    }

    /// The lowest free index at `time` outside `excluded`, or `nil` when all 56 are taken,
    /// resting or excluded.
    mutating func allocate(at time: Double, excluding excluded: Set<UInt8> = []) -> UInt8? {
        guard let index = firstFree(at: time, excluding: excluded) else { return nil }
        resting[index] = nil
        inUse.insert(index)
        return index
    }

    private func firstFree(at time: Double, excluding excluded: Set<UInt8> = []) -> UInt8? {
        (Self.firstRegular...Self.lastRegular).first { !excluded.contains($0) && isFree($0, at: time) }
    }

    /// The highest free index at `time` outside `excluded`.
    func lastFree(at time: Double, excluding excluded: Set<UInt8> = []) -> UInt8? {
        (Self.firstRegular...Self.lastRegular).last { !excluded.contains($0) && isFree($0, at: time) }
    }

    private func isFree(_ index: UInt8, at time: Double) -> Bool {
        guard !inUse.contains(index) else { return false }
        return resting[index].map { time - $0 >= reuseDelay } ?? true
    }

    /// Gives `index` back; it rests until `time + reuseDelay`.
    mutating func release(_ index: UInt8, at time: Double) {
        guard inUse.remove(index) != nil else { return }
        resting[index] = time
    }

    /// Every index held or still resting, with the time it was (or is considered) released at `time`.
    func unavailable(at time: Double) -> [UInt8: Double] {
        var result = resting.filter { time - $0.value < reuseDelay }
        for index in inUse { result[index] = time }
        return result
    }

    /// Marks `index` as released at `time` (resting), unless it is held.
    mutating func rest(_ index: UInt8, since time: Double) {
        guard !inUse.contains(index) else { return }
        resting[index] = max(resting[index] ?? -.infinity, time)
    }
}
