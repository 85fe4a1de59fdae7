/// The paths of a horizon tree by identifier, with the children of every path indexed by parent.
///
/// Reads like a dictionary (`paths[id]`, `keys`, `values`, iteration as `(key, value)` pairs)
/// and keeps, on every write, the identifiers of each path's children sorted by branch offset
/// then identifier, so that ``PathTree/children(of:)`` costs the number of children instead of a
/// scan of the whole tree (the tree grows path by path, and each step asks for children).
/// Two tables are equal when they hold the same paths.
public struct PathTable: Hashable, Sendable, Collection, ExpressibleByDictionaryLiteral {
    /// A path and its identifier.
    public typealias Element = (key: PathID, value: HorizonPath)
    /// A position in the table (that of the underlying dictionary).
    public typealias Index = [PathID: HorizonPath].Index

    /// Every path, by identifier.
    public private(set) var dictionary: [PathID: HorizonPath]
    /// The children of each parent that has some, by (branch offset, identifier).
    private var childIDs: [PathID: [PathID]] = [:]

    /// Creates a table of `paths`.
    public init(_ paths: [PathID: HorizonPath] = [:]) {
        dictionary = paths
        for (id, path) in paths { index(id, under: Self.placement(of: path)) }
    }

    /// Creates a table from identifier–path pairs (identifiers must be unique).
    public init(dictionaryLiteral elements: (PathID, HorizonPath)...) {
        self.init(Dictionary(uniqueKeysWithValues: elements))
    }

    /// The path `id`, `nil` when absent; writing `nil` removes it.
    public subscript(id: PathID) -> HorizonPath? {
        get { dictionary[id] }
        set {
            let old = dictionary[id].flatMap(Self.placement)
            dictionary[id] = newValue
            reindex(id, from: old)
        }
        _modify {
            let old = dictionary[id].flatMap(Self.placement)
            defer { reindex(id, from: old) }
            yield &dictionary[id]
        }
    }

    /// `body` applied to path `id` where the table stores it, without copying the path out (a copy
    /// retains its links, and an optional path is destroyed through the runtime's generic
    /// witness); `nil` when the table has no path `id`.
    @inlinable
    public func withPath<Result>(_ id: PathID, _ body: (borrowing HorizonPath) throws -> Result) rethrows -> Result? {
        guard let index = dictionary.index(forKey: id) else { return nil }
        return try body(dictionary.values[index])
    }

    /// The identifiers of the paths branching directly off `parent`, by branch offset then identifier.
    public func childIDs(of parent: PathID) -> [PathID] { childIDs[parent] ?? [] }

    /// Every identifier.
    public var keys: [PathID: HorizonPath].Keys { dictionary.keys }
    /// Every path.
    public var values: [PathID: HorizonPath].Values { dictionary.values }
    /// The number of paths.
    public var count: Int { dictionary.count }
    /// Whether the table holds no path.
    public var isEmpty: Bool { dictionary.isEmpty }

    /// The paths' values transformed, by identifier.
    public func mapValues<T>(_ transform: (HorizonPath) throws -> T) rethrows -> [PathID: T] {
        try dictionary.mapValues(transform)
    }

    /// Appends `links` to the end of path `id`, in place when nothing else holds this table's
    /// storage or that path's links (growing never moves a path in the tree). Nothing when `id`
    /// is absent.
    public mutating func append(_ links: [PathLink], toPath id: PathID) {
        dictionary[id]?.links.append(contentsOf: links)
    }

    /// Removes path `id` and returns it, `nil` when absent.
    @discardableResult
    public mutating func removeValue(forKey id: PathID) -> HorizonPath? {
        let removed = self[id]
        self[id] = nil
        return removed
    }

    /// Removes every path but those in `kept`, which must hold the children of each path it holds
    /// (a subtree: a turn keeps the subtree of the path turned onto). Returns the identifiers
    /// removed, ascending. The table is rebuilt from what is kept, not cut path by path: a turn in
    /// the city removes dozens of paths, each removal reading where the path hung.
    public mutating func removeAll(except kept: Set<PathID>) -> [PathID] {
        let removed = dictionary.keys.filter { !kept.contains($0) }.sorted()
        guard !removed.isEmpty else { return [] }
        dictionary = dictionary.filter { kept.contains($0.key) }
        // A kept path's children are kept, so each kept parent's list stands as it is.
        childIDs = childIDs.filter { kept.contains($0.key) }
        return removed
    }

    /// Removes every path.
    public mutating func removeAll() {
        dictionary.removeAll()
        childIDs.removeAll()
    }

    public var startIndex: Index { dictionary.startIndex }
    public var endIndex: Index { dictionary.endIndex }
    public func index(after position: Index) -> Index { dictionary.index(after: position) }
    public subscript(position: Index) -> Element { dictionary[position] }

    public static func == (lhs: PathTable, rhs: PathTable) -> Bool { lhs.dictionary == rhs.dictionary }
    public func hash(into hasher: inout Hasher) { hasher.combine(dictionary) }

    /// Where a path hangs in the tree: its parent and branch offset, `nil` for a root.
    private struct Placement: Equatable {
        var parent: PathID
        var branchOffset: Double
    }

    private static func placement(of path: HorizonPath) -> Placement? {
        path.parent.map { Placement(parent: $0, branchOffset: path.branchOffset ?? 0) }
    }

    /// Moves `id` in the index from `old` to its current placement.
    private mutating func reindex(_ id: PathID, from old: Placement?) {
        let new = dictionary[id].flatMap(Self.placement)
        guard old != new else { return }
        if let old {
            childIDs[old.parent]?.removeAll { $0 == id }
            if childIDs[old.parent]?.isEmpty == true { childIDs[old.parent] = nil }
        }
        if let new { index(id, under: new) }
    }

    /// Inserts `id` among the children of its parent at its sorted position.
    private mutating func index(_ id: PathID, under placement: Placement?) {
        guard let placement else { return }
        let key = (placement.branchOffset, id.rawValue)
        var siblings = childIDs.removeValue(forKey: placement.parent) ?? []
        func isAfter(_ sibling: PathID) -> Bool {
            (withPath(sibling) { $0.branchOffset ?? 0 } ?? 0, sibling.rawValue) > key
        }
        // Side paths are added junction after junction along their parent: most go last.
        if let last = siblings.last, !isAfter(last) {
            siblings.append(id)
        } else {
            siblings.insert(id, at: siblings.firstIndex(where: isAfter) ?? siblings.endIndex)
        }
        childIDs[placement.parent] = siblings
    }
}
