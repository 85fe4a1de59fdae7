import Horizon

/// The ADASIS path index each path of the tree holds, looked up both ways: by path for every
/// message built, by index for every STUB released (which path a receiver now holds).
struct PathIndexAssignment {
    /// Each path's index.
    private(set) var indices: [PathID: UInt8] = [:]
    /// The path holding each index (0…63), `nil` where none does.
    private var paths = [PathID?](repeating: nil, count: 64)

    /// The index path `id` holds; setting one gives it (an index held by another path is taken
    /// from it), setting `nil` frees it.
    subscript(id: PathID) -> UInt8? {
        get { indices[id] }
        set {
            if let old = indices[id], paths[Int(old)] == id { paths[Int(old)] = nil }
            guard let index = newValue else {
                indices[id] = nil
                return
            }
            precondition(index < 64, "ADASIS v2 path indices are 0…63, got \(index)")
            if let holder = paths[Int(index)], holder != id { indices[holder] = nil }
            paths[Int(index)] = id
            indices[id] = index
        }
    }

    /// The path holding `index`, `nil` when none does.
    func path(holding index: UInt8) -> PathID? { index < 64 ? paths[Int(index)] : nil }
}
