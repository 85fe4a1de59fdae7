/// A change of the path tree, reported by ``HorizonEngine/update(_:)`` in the order it happened.
public enum HorizonEvent: Hashable, Sendable {
    /// The whole tree was discarded (discontinuity, the vehicle left every path, off road): every
    /// path held before is gone without individual ``pathRemoved(_:)`` events.
    case reset
    /// A new path; its links follow in a ``linksAdded(path:links:)`` event.
    case pathAdded(PathID)
    /// A path and everything on it was removed (behind the vehicle, or detached from the tree).
    case pathRemoved(PathID)
    /// Links were appended at the end of a path.
    case linksAdded(path: PathID, links: [PathLink])
    /// Links were removed from a path: from its front (behind the trailing length) or from its end
    /// (the continuation changed, e.g. a new route); their offsets tell which.
    case linksRemoved(path: PathID, links: [PathLink])
    /// Another path became the main path (`from` is `nil` after a reset).
    case mainPathChanged(from: PathID?, to: PathID)
}
