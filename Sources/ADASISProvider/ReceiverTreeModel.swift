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
    /// Parent of each sub-path index placed by a STUB.
    private var parent: [UInt8: UInt8] = [:]

    /// Every index the receiver may hold: the keys of ``parent`` and ``mainIndex``, kept as they
    /// change (read for every sub-path given an index; built from the table each time, it cost a
    /// walk of up to 56 entries per STUB).
    private(set) var held = PathIndexSet()

    /// Follows one frame as the receiver applies it.
    mutating func apply(_ message: ADASISMessage) {
        switch message {
        case .position(let position) where position.positionIndex == 0 && Self.isRegular(position.pathIndex):
            guard position.pathIndex != mainIndex else { return }
            let kept = subtree(of: position.pathIndex)
            parent = parent.filter { kept.contains($0.key) }
            parent[position.pathIndex] = nil
            mainIndex = position.pathIndex
            held = PathIndexSet(parent.keys)
            held.insert(position.pathIndex)
        case .stub(let stub) where Self.isRegular(stub.subPathIndex) && Self.isRegular(stub.pathIndex):
            if let old = parent[stub.subPathIndex], old != stub.pathIndex {
                for index in subtree(of: stub.subPathIndex) where index != stub.subPathIndex {
                    parent[index] = nil
                    if index != mainIndex { held.remove(index) }
                }
            }
            parent[stub.subPathIndex] = stub.pathIndex
            held.insert(stub.subPathIndex)
        default:
            break
        }
    }

    private static func isRegular(_ index: UInt8) -> Bool {
        (PathIndexAllocator.firstRegular...PathIndexAllocator.lastRegular).contains(index)
    }

    /// `index` and every index placed below it.
    private func subtree(of index: UInt8) -> Set<UInt8> {
        var result: Set<UInt8> = [index]
        var grew = true
        while grew {
            grew = false
            for (child, above) in parent where result.contains(above) && !result.contains(child) {
                result.insert(child)
                grew = true
            }
        }
        return result
    }
}
