import ADASISv2

/// Which path indices a receiver may still hold, followed from the frames sent: the main path
/// named by the last POSITION and every sub-path a STUB placed below it. A receiver forgets a
/// path only when a POSITION names another main path outside that path's subtree (re-rooting), or
/// when a STUB places the index elsewhere; a path the provider retired, or a horizon it dropped
/// while POSITION reported no position, stays held there. A new main path on a held index would
/// inherit that path's old content, so ``ADASISProvider`` gives new main paths an index outside
/// ``held``. Purging behind the vehicle is not modelled (its length is the receiver's), so the
/// set errs on the side of holding.
struct ReceiverTreeModel: Sendable {
    /// The receiver's main path (the last regular path index POSITION named).
    private(set) var mainIndex: UInt8?
    /// Parent of each sub-path index placed by a STUB, by the sub-path's index (a table of the 64
    /// indices rather than a dictionary: it is read for every STUB sent, and hashing an index cost
    /// more than the read).
    private var parent = [UInt8?](repeating: nil, count: 64)

    /// Every index the receiver may hold: the indices with a ``parent`` and ``mainIndex``, kept as
    /// they change (read for every sub-path given an index).
    private(set) var held = PathIndexSet()

    /// Follows one frame as the receiver applies it.
    mutating func apply(_ message: ADASISMessage) {
        switch message {
        case .position(let position) where position.positionIndex == 0 && Self.isRegular(position.pathIndex):
            guard position.pathIndex != mainIndex else { return }
            let kept = subtree(of: position.pathIndex)
            held = PathIndexSet()
            for index in parent.indices where parent[index] != nil {
                if kept.contains(UInt8(index)) && index != Int(position.pathIndex) {
                    held.insert(UInt8(index))
                } else {
                    parent[index] = nil
                }
            }
            mainIndex = position.pathIndex
            held.insert(position.pathIndex)
        case .stub(let stub) where Self.isRegular(stub.subPathIndex) && Self.isRegular(stub.pathIndex):
            if let old = parent[Int(stub.subPathIndex)], old != stub.pathIndex {
                for index in subtree(of: stub.subPathIndex) where index != stub.subPathIndex {
                    parent[Int(index)] = nil
                    if index != mainIndex { held.remove(index) }
                }
            }
            parent[Int(stub.subPathIndex)] = stub.pathIndex
            held.insert(stub.subPathIndex)
        default:
            break
        }
    }

    private static func isRegular(_ index: UInt8) -> Bool {
        (PathIndexAllocator.firstRegular...PathIndexAllocator.lastRegular).contains(index)
    }

    /// `index` and every index placed below it.
    private func subtree(of index: UInt8) -> PathIndexSet {
        var result: PathIndexSet = [index]
        var grew = true
        while grew {
            grew = false
            for child in parent.indices {
                guard let above = parent[child], result.contains(above), !result.contains(UInt8(child)) else {
                    continue
                }
                result.insert(UInt8(child))
                grew = true
            }
        }
        return result
    }
}
